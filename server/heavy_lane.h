#pragma once
// HeavyLane: where big requests run, so that a few of them cannot hold up the
// I/O threads and the small requests of the connections queued behind them.
//
// A request whose header announces a big body (is_heavy_request) first takes
// one of a few slots. Its body is then read by its connection's I/O thread as
// any other (reading is a copy per chunk, interleaved with the thread's other
// connections), but it is inflated, decoded and handled, and its answer
// serialised, on one of the lane's own threads, while the I/O thread goes back
// to its other connections. (Reading on the lane thread too cost two to three
// times the CPU: each chunk's completion, and each timeout re-armed, crossed
// from the socket's I/O thread to the lane.) While every slot is taken,
// further big requests wait with their bodies unread (TCP holds their senders
// back), so at most `slots` big bodies are in memory at once. A slot is held
// until the answer is written: a sender that trickles its body, or a client
// that reads its answer slowly, keeps it up to the I/O timeout (60 s for the
// rest of the body, and 60 s more for the answer).

#include <boost/asio.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace dynamod {

// Bodies over 1 MB; chunked bodies (their size is unknown until they are
// read); compressed bodies over 1 KB (deflate inflates at most about 1,032:1,
// so a smaller one is no bigger than 1 MB once inflated).
bool is_heavy_request(std::optional<std::uint64_t> content_length, bool chunked, std::string_view content_encoding);

// Four bodies of up to 16 MB (and what they decode to) in memory at once: a
// few hundred MB at worst.
inline constexpr std::size_t kHeavyLaneSlots = 4;

class HeavyLane {
 public:
  // Held by a heavy request from before its body is read until its answer is written.
  class Slot {
   public:
    explicit Slot(HeavyLane* lane) : lane_(lane) {}
    Slot(Slot&& other) noexcept : lane_(std::exchange(other.lane_, nullptr)) {}
    Slot& operator=(Slot&&) = delete;
    ~Slot() {
      if (lane_) lane_->release();
    }

   private:
    HeavyLane* lane_;
  };

  // `threads` threads, each running its own io_context (as the I/O threads do:
  // a connection's handlers then never run on two threads at once).
  HeavyLane(std::size_t slots, unsigned threads);
  // Joins the threads; by then no request may be in the lane or waiting for it.
  ~HeavyLane();
  HeavyLane(const HeavyLane&) = delete;
  HeavyLane& operator=(const HeavyLane&) = delete;

  // Resumes the caller, on its own executor, once a slot is its.
  boost::asio::awaitable<Slot> acquire();
  // The executor of the lane thread that takes the next heavy request (in turn).
  boost::asio::io_context::executor_type next_executor();

  // Prometheus text: heavy requests, those that waited for a slot, slots taken and waiters now.
  void render_metrics(std::string& out) const;

 private:
  // A coroutine waiting for a slot, resumed on its own executor.
  struct Waiter {
    boost::asio::any_io_executor executor;
    boost::asio::any_completion_handler<void()> handler;
  };
  void release();
  static void resume(Waiter waiter);

  const std::size_t slots_;
  mutable std::mutex mutex_;
  std::size_t taken_ = 0;
  std::deque<Waiter> waiting_;
  std::uint64_t requests_ = 0;
  std::uint64_t waited_ = 0;
  std::vector<std::unique_ptr<boost::asio::io_context>> contexts_;
  std::vector<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::vector<std::thread> threads_;
  std::atomic<std::size_t> next_{0};
};

}  // namespace dynamod
