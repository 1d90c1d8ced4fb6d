#include "server/heavy_lane.h"

#include <fmt/format.h>
#include <boost/beast/core/string.hpp>

#include <iterator>

#include "storage/background_priority.h"

namespace dynamod {

namespace asio = boost::asio;

namespace {

constexpr std::uint64_t kHeavyBody = 1024 * 1024;
constexpr std::uint64_t kHeavyCompressedBody = 1024;

bool is_identity(std::string_view coding) {
  while (!coding.empty() && (coding.front() == ' ' || coding.front() == '\t')) coding.remove_prefix(1);
  while (!coding.empty() && (coding.back() == ' ' || coding.back() == '\t')) coding.remove_suffix(1);
  return coding.empty() || boost::beast::iequals(coding, "identity");
}

}  // namespace

bool is_heavy_request(std::optional<std::uint64_t> content_length, bool chunked, std::string_view content_encoding) {
  if (chunked) return true;
  const std::uint64_t length = content_length.value_or(0);
  return length > kHeavyBody || (length > kHeavyCompressedBody && !is_identity(content_encoding));
}

HeavyLane::HeavyLane(std::size_t slots, unsigned threads) : slots_(slots) {
  for (unsigned i = 0; i < threads; ++i) {
    contexts_.push_back(std::make_unique<asio::io_context>(1));
    work_.push_back(asio::make_work_guard(*contexts_.back()));
  }
  for (auto& context : contexts_) {
    threads_.emplace_back([io = context.get()] {
      lower_this_thread_priority("heavy lane");  // small requests first (storage/background_priority.h)
      io->run();
    });
  }
}

HeavyLane::~HeavyLane() {
  for (auto& guard : work_) guard.reset();
  for (auto& thread : threads_) thread.join();
}

asio::awaitable<HeavyLane::Slot> HeavyLane::acquire() {
  co_await asio::async_initiate<decltype(asio::use_awaitable), void()>(
      [this](auto handler) {
        Waiter waiter{asio::get_associated_executor(handler), std::move(handler)};
        std::unique_lock lock(mutex_);
        ++requests_;
        if (taken_ < slots_) {
          ++taken_;
          lock.unlock();
          resume(std::move(waiter));
          return;
        }
        ++waited_;
        waiting_.push_back(std::move(waiter));
      },
      asio::use_awaitable);
  co_return Slot(this);
}

void HeavyLane::release() {
  std::unique_lock lock(mutex_);
  if (waiting_.empty()) {
    --taken_;
    return;
  }
  // The slot passes straight to the longest waiter.
  Waiter next = std::move(waiting_.front());
  waiting_.pop_front();
  lock.unlock();
  resume(std::move(next));
}

void HeavyLane::resume(Waiter waiter) {
  // Through its executor's queue, never inside the call that gave it the slot.
  asio::post(waiter.executor, [handler = std::move(waiter.handler)]() mutable { std::move(handler)(); });
}

asio::io_context::executor_type HeavyLane::next_executor() {
  return contexts_[next_.fetch_add(1, std::memory_order_relaxed) % contexts_.size()]->get_executor();
}

void HeavyLane::render_metrics(std::string& out) const {
  std::lock_guard lock(mutex_);
  fmt::format_to(std::back_inserter(out),
                 "# HELP dynamod_heavy_requests_total Requests with a big body (over 1 MB, chunked, or compressed "
                 "over 1 KB), decoded and handled on the heavy lane's threads.\n"
                 "# TYPE dynamod_heavy_requests_total counter\n"
                 "dynamod_heavy_requests_total {}\n"
                 "# HELP dynamod_heavy_waits_total Heavy requests that waited for one of the lane's slots.\n"
                 "# TYPE dynamod_heavy_waits_total counter\n"
                 "dynamod_heavy_waits_total {}\n"
                 "# HELP dynamod_heavy_slots_taken Heavy requests in the lane now (of dynamod_heavy_slots).\n"
                 "# TYPE dynamod_heavy_slots_taken gauge\n"
                 "dynamod_heavy_slots_taken {}\n"
                 "# HELP dynamod_heavy_slots The most heavy requests in the lane at once.\n"
                 "# TYPE dynamod_heavy_slots gauge\n"
                 "dynamod_heavy_slots {}\n"
                 "# HELP dynamod_heavy_waiting Heavy requests waiting for a slot now, their bodies unread.\n"
                 "# TYPE dynamod_heavy_waiting gauge\n"
                 "dynamod_heavy_waiting {}\n",
                 requests_, waited_, taken_, slots_, waiting_.size());
}

}  // namespace dynamod
