#pragma once
// ChangeLog: durable commits that write one sequential record instead of
// syncing every B-tree page a group of writes dirtied.
//
// Under --durability full LMDB runs with MDB_NOSYNC. Each write group's
// journal (lmdb::WriteTxn) is appended to <data dir>/changes.log when the group
// commits, and the group's requests are answered once an fdatasync covers the
// record. The sync runs on its own thread while the writer commits the next
// group, so readers may see a group up to one log sync before it is durable;
// no write is acknowledged before, and since records keep commit order, a
// durable group never depends on a lost one.
//
// The log starts at a checkpoint: a commit whose pages were all synced and
// whose two meta pages the log's header keeps. A snapshot (read transaction)
// stays on that commit until the next checkpoint, so LMDB reuses none of its
// pages: whatever the page cache had or had not written when the machine
// stopped, the checkpoint's tree is whole on disk. Recovery writes the header's
// meta pages back into data.mdb, which makes LMDB open at the checkpoint, and
// then replays every whole record. A checkpoint syncs data.mdb, writes the new
// log's header into a spare file, syncs it, swaps the spare and the log in one
// rename (RENAME_EXCHANGE), syncs the directory, and only then moves the
// snapshot forward. The old log becomes the spare: its blocks are written
// already, so the next log's syncs are pure data writes.
//
// Records are a 4-byte length, an 8-byte XXH3 of the payload seeded with the
// log's generation and the length, and the payload. Replay stops at a zero
// length or at the first record that is cut short or does not match its hash:
// the append a crash interrupted (never acknowledged), or what a recycled file
// held before.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/lmdb.h"

namespace dynamod {

class ChangeLog {
 public:
  // A checkpoint comes once the log holds max_bytes, max_age after its first
  // record, or once data.mdb has grown by max_growth: the snapshot keeps every
  // page freed since the last checkpoint from reuse, so the file grows by every
  // page a commit writes until the next checkpoint.
  struct Limits {
    std::uint64_t max_bytes = 1ull << 20;
    std::chrono::milliseconds max_age{1000};
    std::uint64_t max_growth = 8ull << 20;  // data.mdb past its size at the checkpoint
  };

  // Takes the directory's lock (one dynamod per data directory) and, when the
  // directory has a log, puts its checkpoint's meta pages back into data.mdb.
  // Call before LMDB opens the environment.
  ChangeLog(const std::filesystem::path& dir, Limits limits);
  ~ChangeLog();
  ChangeLog(const ChangeLog&) = delete;
  ChangeLog& operator=(const ChangeLog&) = delete;

  // The journals logged after the checkpoint, for replay once the environment
  // is open (taken once).
  std::vector<std::string> take_replay() { return std::move(replay_); }

  // Throws when the log cannot take records (a write or sync failed since the
  // last checkpoint): a group checks before it commits, so it is not applied.
  void check_writable() const;
  // Writes one committed group's journal after the previous ones (writer
  // thread). A failure marks the log broken: sync() then reports it.
  void write(std::string_view journal);
  // Makes every record written so far durable (sync thread); throws when it
  // cannot, or when a write failed.
  void sync();

  // Checkpoints when the log has grown past its size limit or its first record
  // is older than the time limit (which bounds the pages the snapshot holds).
  bool checkpoint_due(const lmdb::Env& env) const;
  // Syncs data.mdb and starts a new, empty log at the last commit. Call with
  // no write transaction open.
  void checkpoint(lmdb::Env& env);

 private:
  void start_log(const std::string& header);
  void sync_directory() const;

  Limits limits_;
  std::filesystem::path dir_;
  std::filesystem::path data_file_;
  std::filesystem::path log_file_;
  std::filesystem::path spare_file_;  // the log before last, recycled by the next checkpoint
  int dir_fd_ = -1;  // holds the flock
  int log_fd_ = -1;
  int spare_fd_ = -1;
  std::uint64_t generation_ = 0;  // seeds the record hashes (see change_log.cpp)
  unsigned page_size_ = 4096;
  std::size_t checkpoint_last_page_ = 0;
  std::uint64_t end_ = 0;  // where the next record goes
  std::uint64_t header_size_ = 0;
  std::optional<std::chrono::steady_clock::time_point> first_record_at_;
  std::atomic<bool> broken_{false};  // set by either thread, cleared by a checkpoint
  std::vector<std::string> replay_;
  std::optional<lmdb::Snapshot> checkpoint_snapshot_;
};

}  // namespace dynamod
