// The writer's two kinds of groups: jobs that defer their sync (an import's)
// never share a commit with the others, and the two kinds take turns, so a
// request waits for at most one import group and lends its fsync to none.
#include <doctest/doctest.h>

#include <future>
#include <mutex>
#include <string>
#include <vector>

#include "storage/write_queue.h"

using namespace dynamod;

namespace {

// Records the commit (by the WriteQueue's count) each job ran before.
struct Journal {
  std::mutex mutex;
  std::vector<std::string> order;
  void add(std::string what) {
    std::lock_guard lock(mutex);
    order.push_back(std::move(what));
  }
};

void submit(WriteQueue& writer, Journal& journal, std::string name, bool deferred, std::promise<void>* done = nullptr) {
  auto run = [&journal, name](WriteContext&) {
    journal.add(name);
    return true;
  };
  auto complete = [done](Outcome<bool>) {
    if (done) done->set_value();
  };
  writer.submit(std::make_unique<CallableJob<bool, decltype(run), decltype(complete)>>(run, complete, deferred));
}

}  // namespace

TEST_CASE("deferred jobs commit in groups of their own, taking turns with the others") {
  Store store(StoreOptions{.in_memory = true});
  WriteQueue writer(store);
  Journal journal;
  // Holds the writer while the others are queued.
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<void> holding;
  auto hold = [&](WriteContext&) {
    holding.set_value();
    released.wait();
    return true;
  };
  auto ignore = [](Outcome<bool>) {};
  const std::uint64_t before = writer.totals().commits;
  writer.submit(std::make_unique<CallableJob<bool, decltype(hold), decltype(ignore)>>(hold, ignore));
  holding.get_future().wait();
  submit(writer, journal, "import 1", true);
  submit(writer, journal, "other 1", false);
  submit(writer, journal, "other 2", false);
  std::promise<void> last;
  submit(writer, journal, "import 2", true, &last);
  release.set_value();
  last.get_future().wait();
  // After the holding group (not deferred) comes the deferred one, then the
  // two others together.
  writer.stop();
  CHECK(journal.order == std::vector<std::string>{"import 1", "import 2", "other 1", "other 2"});
  CHECK(writer.totals().commits - before == 3);
}
