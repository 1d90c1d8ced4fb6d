// Which requests go to the heavy lane, and how its slots are handed out: at most
// `slots` at once, the next in line resumed when one is given back.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "server/heavy_lane.h"

using namespace dynamod;
namespace asio = boost::asio;

TEST_CASE("is_heavy_request: bodies over 1 MB, chunked ones, compressed ones over 1 KB") {
  CHECK_FALSE(is_heavy_request(std::nullopt, false, ""));
  CHECK_FALSE(is_heavy_request(0, false, ""));
  CHECK_FALSE(is_heavy_request(1024 * 1024, false, ""));
  CHECK(is_heavy_request(1024 * 1024 + 1, false, ""));
  CHECK(is_heavy_request(std::nullopt, true, ""));
  CHECK_FALSE(is_heavy_request(1024, false, "gzip"));
  CHECK(is_heavy_request(1025, false, "gzip"));
  CHECK(is_heavy_request(1025, false, "deflate"));
  CHECK(is_heavy_request(1025, false, "br"));  // refused once read, but read like the others
  CHECK_FALSE(is_heavy_request(1025, false, "identity"));
  CHECK_FALSE(is_heavy_request(1025, false, " Identity "));
}

TEST_CASE("HeavyLane hands out its slots in turn") {
  HeavyLane lane(2, 1);
  asio::io_context io;
  std::vector<int> order;
  std::vector<std::optional<HeavyLane::Slot>> held(3);
  for (int i = 0; i < 3; ++i) {
    asio::co_spawn(
        io,
        [&, i]() -> asio::awaitable<void> {
          held[i].emplace(co_await lane.acquire());
          order.push_back(i);
        },
        asio::detached);
  }
  io.poll();  // runs what is ready; the third waits
  io.restart();
  CHECK(order == std::vector<int>{0, 1});
  std::string metrics;
  lane.render_metrics(metrics);
  CHECK(metrics.find("dynamod_heavy_slots_taken 2\n") != std::string::npos);
  CHECK(metrics.find("dynamod_heavy_waiting 1\n") != std::string::npos);

  held[0].reset();  // the third takes the slot given back
  io.poll();
  io.restart();
  CHECK(order == std::vector<int>{0, 1, 2});
  held[1].reset();
  held[2].reset();
  metrics.clear();
  lane.render_metrics(metrics);
  CHECK(metrics.find("dynamod_heavy_requests_total 3\n") != std::string::npos);
  CHECK(metrics.find("dynamod_heavy_waits_total 1\n") != std::string::npos);
  CHECK(metrics.find("dynamod_heavy_slots_taken 0\n") != std::string::npos);
  CHECK(metrics.find("dynamod_heavy_waiting 0\n") != std::string::npos);
}
