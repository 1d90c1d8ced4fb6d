// `wait` (until the server answers) and `startup` (spawn a server, time it to its
// first answer, repeat).

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "bench/connection.h"
#include "bench/run_report.h"

extern char** environ;

namespace dynamod::bench {
namespace {

// One blocking probe: connect, send, read. True on a 200 answer.
bool probe_once(const Options& o, Signer& signer, asio::io_context& io) {
  boost::system::error_code ec;
  tcp::socket socket(io);
  socket.connect(resolve(o), ec);
  if (ec) return false;
  signer.tick();
  SignedRequest request = o.probe == "get"
                              ? SignedRequest::raw_get(o.host_header())
                              : SignedRequest(signer, o.host_header(), "DynamoDB_20120810.ListTables", "{}");
  asio::write(socket, asio::buffer(request.wire().data(), request.wire().size()), ec);
  if (ec) return false;
  boost::beast::flat_buffer buffer;
  std::string body;
  ResponseReader reader(body);
  http::read(socket, buffer, reader, ec);
  return !ec && reader.status() == 200;
}

}  // namespace

int run_wait(const Options& o) {
  asio::io_context io(1);
  Signer signer(o.access_key, o.secret_key, o.region);
  const auto start = Clock::now();
  while (seconds_between(start, Clock::now()) < o.timeout) {
    if (probe_once(o, signer, io)) {
      std::printf("ready after %.1f ms\n", seconds_between(start, Clock::now()) * 1e3);
      return 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  std::fprintf(stderr, "%s:%u did not answer within %.0f s\n", o.host.c_str(), o.port, o.timeout);
  return 1;
}

namespace {

std::uint64_t status_kib(pid_t pid, std::string_view field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) == 0 && line.size() > field.size() && line[field.size()] == ':') {
      return std::strtoull(line.c_str() + field.size() + 1, nullptr, 10);
    }
  }
  return 0;
}

bool stop_child(pid_t pid) {
  ::kill(pid, SIGTERM);
  for (int i = 0; i < 1000; ++i) {  // 10 s
    if (::waitpid(pid, nullptr, WNOHANG) == pid) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return false;
}

template <class T>
T median(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? T{} : v[v.size() / 2];
}

}  // namespace

// Spawns the command, times spawn -> first 200 answer, reads its RSS then, stops it; repeats.
int run_startup(const Options& o) {
  if (o.command.empty()) throw std::runtime_error("startup needs the server command after --");
  asio::io_context io(1);
  Signer signer(o.access_key, o.secret_key, o.region);
  std::vector<char*> argv;
  for (const auto& a : o.command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<double> times_ms;
  std::vector<std::uint64_t> rss_kib;
  for (unsigned i = 0; i < o.repeat; ++i) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const auto start = Clock::now();
    const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + o.command[0] + ": " + std::strerror(rc));
    bool ready = false;
    while (seconds_between(start, Clock::now()) < o.timeout) {
      if (probe_once(o, signer, io)) {
        ready = true;
        break;
      }
      if (::waitpid(pid, nullptr, WNOHANG) == pid) {
        pid = 0;
        break;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    const double ms = seconds_between(start, Clock::now()) * 1e3;
    if (ready) rss_kib.push_back(status_kib(pid, "VmRSS"));
    if (pid != 0) stop_child(pid);
    if (!ready) {
      std::fprintf(stderr, "startup %s: no answer (run %u)\n", o.label.c_str(), i + 1);
      return 1;
    }
    times_ms.push_back(ms);
  }
  const double med = median(times_ms);
  const double lo = *std::min_element(times_ms.begin(), times_ms.end());
  const double hi = *std::max_element(times_ms.begin(), times_ms.end());
  const double rss_mib = static_cast<double>(median(rss_kib)) / 1024.0;
  if (o.json) {
    std::printf(
        "{\"workload\":\"startup\",\"label\":\"%s\",\"runs\":%zu,\"median_ms\":%.2f,\"min_ms\":%.2f,"
        "\"max_ms\":%.2f,\"rss_mib\":%.1f}\n",
        json_escape(o.label).c_str(), times_ms.size(), med, lo, hi, rss_mib);
  } else {
    std::printf("startup %s: median %.1f ms (min %.1f, max %.1f, %zu runs) to the first 200; RSS then %.1f MiB\n",
                o.label.c_str(), med, lo, hi, times_ms.size(), rss_mib);
  }
  return 0;
}

}  // namespace dynamod::bench
