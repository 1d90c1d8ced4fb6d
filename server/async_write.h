#pragma once
// Awaiting a write from a coroutine: the job runs in a group transaction (on
// the writer thread, or on this thread when the queue lets requests write
// there) and its outcome is posted back to the awaiting coroutine's executor
// (its connection's io_context, whose one thread resumes it).
//
// Usage: co_await async_write(queue, write_job([...](WriteContext& ctx) { ... }));
// write_job boxes the callable first: g++ 12 miscompiles closures passed by
// value into coroutines (members that point into the closure, such as a short
// std::string's buffer, are left pointing into the caller's frame).

#include <boost/asio.hpp>

#include <memory>

#include "storage/write_queue.h"

namespace dynamod {

template <typename Fn>
std::unique_ptr<Fn> write_job(Fn fn) {
  return std::make_unique<Fn>(std::move(fn));
}

template <typename Fn>
auto async_write(WriteQueue& queue, std::unique_ptr<Fn> fn)
    -> boost::asio::awaitable<decltype((*fn)(std::declval<WriteContext&>()))> {
  using R = decltype((*fn)(std::declval<WriteContext&>()));
  namespace asio = boost::asio;
  Outcome<R> outcome = co_await asio::async_initiate<decltype(asio::use_awaitable), void(Outcome<R>)>(
      [&queue, &fn](auto handler) {
        auto executor = asio::get_associated_executor(handler);
        auto complete = [handler = std::move(handler), executor](Outcome<R> result) mutable {
          asio::post(executor, [handler = std::move(handler), result = std::move(result)]() mutable {
            std::move(handler)(std::move(result));
          });
        };
        auto run = [fn = std::move(fn)](WriteContext& ctx) { return (*fn)(ctx); };
        queue.submit_request(
            std::make_unique<CallableJob<R, decltype(run), decltype(complete)>>(std::move(run), std::move(complete)));
      },
      asio::use_awaitable);
  co_return outcome.take();
}

}  // namespace dynamod
