#include "storage/change_log.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>
#include <utility>

namespace dynamod {

namespace {

constexpr std::string_view kMagic = "dynamod-changes\n";
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kRecordHeader = 12;  // length, hash

[[noreturn]] void fail(const std::string& what) { throw std::system_error(errno, std::generic_category(), what); }

void put_u32(std::string& out, std::uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); }
void put_u64(std::string& out, std::uint64_t v) { out.append(reinterpret_cast<const char*>(&v), 8); }
std::uint32_t get_u32(const char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
std::uint64_t get_u64(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Seeded with the log's generation (its header's hash): records a recycled log
// file still holds from an earlier use never match.
std::uint64_t record_hash(std::uint64_t generation, std::string_view payload) {
  return XXH3_64bits_withSeed(payload.data(), payload.size(), generation + payload.size());
}

void write_all(int fd, std::string_view bytes, std::uint64_t offset, const std::string& what) {
  while (!bytes.empty()) {
    ssize_t n = pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(what);
    bytes.remove_prefix(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot read " + path.string());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A log's header: the magic, the version, LMDB's page size, the checkpoint's
// transaction id, its two meta pages, and a hash of all that.
struct Header {
  std::uint32_t page_size = 0;
  std::uint64_t txnid = 0;
  std::string metas;

  std::string encode() const {
    std::string out(kMagic);
    put_u32(out, kVersion);
    put_u32(out, page_size);
    put_u64(out, txnid);
    out += metas;
    put_u64(out, XXH3_64bits(out.data(), out.size()));
    return out;
  }
  static std::uint64_t generation(std::string_view encoded) { return get_u64(encoded.data() + encoded.size() - 8); }

  // Throws when `log` does not start with a whole, matching header.
  static Header decode(std::string_view log, const std::filesystem::path& path) {
    auto damaged = [&](const char* why) {
      return std::runtime_error(path.string() + " is not a dynamod change log or is damaged (" + why +
                                "); move it away to open the data directory without it, losing what it holds");
    };
    const std::size_t fixed = kMagic.size() + 16;
    if (log.size() < fixed || log.substr(0, kMagic.size()) != kMagic) throw damaged("no header");
    if (get_u32(log.data() + kMagic.size()) != kVersion) throw damaged("unknown version");
    Header h;
    h.page_size = get_u32(log.data() + kMagic.size() + 4);
    h.txnid = get_u64(log.data() + kMagic.size() + 8);
    if (h.page_size < 512 || h.page_size > 65536 || (h.page_size & (h.page_size - 1)) != 0) {
      throw damaged("bad page size");
    }
    const std::size_t size = fixed + 2 * std::size_t{h.page_size};
    if (log.size() < size + 8) throw damaged("header cut short");
    if (get_u64(log.data() + size) != XXH3_64bits(log.data(), size)) throw damaged("header hash mismatch");
    h.metas.assign(log.substr(fixed, 2 * std::size_t{h.page_size}));
    return h;
  }

  std::size_t size() const { return kMagic.size() + 16 + metas.size() + 8; }
};

}  // namespace

ChangeLog::ChangeLog(const std::filesystem::path& dir, Limits limits)
    : limits_(limits),
        dir_(dir),
      data_file_(dir / "data.mdb"),
      log_file_(dir / "changes.log"),
      spare_file_(dir / "changes.spare") {
  dir_fd_ = open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd_ < 0) fail("cannot open " + dir_.string());
  if (flock(dir_fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    close(dir_fd_);
    errno = error;
    if (error == EWOULDBLOCK) {
      throw std::runtime_error("data directory " + dir_.string() + " is in use by another dynamod");
    }
    fail("cannot lock " + dir_.string());
  }
  try {
    if (!std::filesystem::exists(log_file_)) return;
    const std::string log = read_file(log_file_);
    const Header header = Header::decode(log, log_file_);
    if (!std::filesystem::exists(data_file_)) {
      throw std::runtime_error(dir_.string() + " has a change log but no data.mdb");
    }
    // LMDB opens at the meta page with the higher transaction id: with both put
    // back as they were, that is the checkpoint.
    const int data_fd = open(data_file_.c_str(), O_RDWR | O_CLOEXEC);
    if (data_fd < 0) fail("cannot open " + data_file_.string());
    try {
      write_all(data_fd, header.metas, 0, "cannot restore the checkpoint in " + data_file_.string());
      if (fdatasync(data_fd) != 0) fail("cannot sync " + data_file_.string());
    } catch (...) {
      close(data_fd);
      throw;
    }
    close(data_fd);
    const std::uint64_t generation = Header::generation(std::string_view(log).substr(0, header.size()));
    std::string_view rest = std::string_view(log).substr(header.size());
    while (rest.size() >= kRecordHeader) {
      const std::uint32_t length = get_u32(rest.data());
      if (length == 0 || rest.size() - kRecordHeader < length) break;
      const std::string_view payload = rest.substr(kRecordHeader, length);
      // A mismatch is the end: a record cut short by a crash (never acknowledged)
      // or what a recycled file held before.
      if (get_u64(rest.data() + 4) != record_hash(generation, payload)) break;
      replay_.emplace_back(payload);
      rest.remove_prefix(kRecordHeader + length);
    }
    spdlog::info("{}: recovering from the checkpoint at transaction {}, {} logged groups to replay",
                 log_file_.string(), header.txnid, replay_.size());
  } catch (...) {
    close(dir_fd_);
    throw;
  }
}

ChangeLog::~ChangeLog() {
  checkpoint_snapshot_.reset();
  if (log_fd_ >= 0) close(log_fd_);
  if (spare_fd_ >= 0) close(spare_fd_);
  close(dir_fd_);
}

void ChangeLog::check_writable() const {
  if (broken_) throw std::runtime_error("the change log failed earlier; writes wait for a checkpoint");
}

void ChangeLog::write(std::string_view journal) {
  if (broken_) return;  // sync() reports it
  char header[kRecordHeader];
  const auto length = static_cast<std::uint32_t>(journal.size());
  const std::uint64_t hash = record_hash(generation_, journal);
  std::memcpy(header, &length, 4);
  std::memcpy(header + 4, &hash, 8);
  iovec parts[2] = {{header, kRecordHeader}, {const_cast<char*>(journal.data()), journal.size()}};
  const std::size_t total = kRecordHeader + journal.size();
  ssize_t n;
  do {
    n = pwritev(log_fd_, parts, 2, static_cast<off_t>(end_));
  } while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(total)) {
    // The group is committed but not logged: only a checkpoint makes it durable.
    spdlog::error("cannot append to {}: {}", log_file_.string(), n < 0 ? std::strerror(errno) : "short write");
    broken_ = true;
    return;
  }
  end_ += total;
  if (!first_record_at_) first_record_at_ = std::chrono::steady_clock::now();
}

void ChangeLog::sync() {
  check_writable();
  if (fdatasync(log_fd_) != 0) {
    // After a failed sync the kernel may have dropped the pages: nothing more
    // goes into this log; the next checkpoint starts a new one.
    broken_ = true;
    fail("cannot sync " + log_file_.string());
  }
}

bool ChangeLog::checkpoint_due(const lmdb::Env& env) const {
  if (broken_) return true;
  if (end_ - header_size_ >= limits_.max_bytes) return true;
  if ((env.last_page() - checkpoint_last_page_) * page_size_ >= limits_.max_growth) return true;
  return first_record_at_ && std::chrono::steady_clock::now() - *first_record_at_ >= limits_.max_age;
}

void ChangeLog::checkpoint(lmdb::Env& env) {
  env.sync();
  Header header;
  header.page_size = env.page_size();
  header.txnid = env.last_txnid();
  header.metas.resize(2 * std::size_t{header.page_size});
  const int data_fd = open(data_file_.c_str(), O_RDONLY | O_CLOEXEC);
  if (data_fd < 0) fail("cannot open " + data_file_.string());
  const ssize_t n = pread(data_fd, header.metas.data(), header.metas.size(), 0);
  const int error = errno;
  close(data_fd);
  errno = error;
  if (n != static_cast<ssize_t>(header.metas.size())) fail("cannot read the meta pages of " + data_file_.string());
  // The snapshot of the new checkpoint is taken before the old one goes: if
  // taking it fails, the old one still keeps a consistent tree whole.
  lmdb::Snapshot snapshot(env);
  const std::string encoded = header.encode();
  start_log(encoded);
  checkpoint_snapshot_.reset();
  checkpoint_snapshot_.emplace(std::move(snapshot));
  generation_ = Header::generation(encoded);
  header_size_ = end_ = encoded.size();
  page_size_ = header.page_size;
  checkpoint_last_page_ = env.last_page();
  first_record_at_.reset();
  broken_ = false;
}

void ChangeLog::start_log(const std::string& header) {
  // The new log is written in the spare file (the log before last, or a new
  // one), which then trades names with the current log in one atomic rename.
  if (spare_fd_ < 0) {
    spare_fd_ = open(spare_file_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (spare_fd_ < 0) fail("cannot create " + spare_file_.string());
  }
  struct stat st;
  if (fstat(spare_fd_, &st) != 0) fail("cannot stat " + spare_file_.string());
  // Written blocks as far as the log may grow before the next checkpoint:
  // overwriting them makes fdatasync one data write, where an append also
  // commits the file's new size to the file system's journal (twice the time
  // on ext4). A recycled file has them already.
  const std::uint64_t want = header.size() + limits_.max_bytes;
  if (static_cast<std::uint64_t>(st.st_size) < want) {
    const std::string zeros(1 << 20, '\0');
    for (auto at = static_cast<std::uint64_t>(st.st_size); at < want; at += zeros.size()) {
      write_all(spare_fd_, std::string_view(zeros).substr(0, std::min<std::uint64_t>(zeros.size(), want - at)), at,
                "cannot write " + spare_file_.string());
    }
  }
  // The header, and a zero length after it: the log is empty.
  write_all(spare_fd_, header + std::string(kRecordHeader, '\0'), 0, "cannot write " + spare_file_.string());
  if (fsync(spare_fd_) != 0) fail("cannot sync " + spare_file_.string());
  if (renameat2(dir_fd_, spare_file_.c_str(), dir_fd_, log_file_.c_str(), RENAME_EXCHANGE) == 0) {
    std::swap(log_fd_, spare_fd_);  // the old log is the spare now
  } else if (errno == ENOENT || errno == EINVAL || errno == ENOSYS) {
    // No log yet, or a file system that cannot exchange names: a plain rename,
    // and the next checkpoint writes a new spare.
    if (rename(spare_file_.c_str(), log_file_.c_str()) != 0) fail("cannot rename " + spare_file_.string());
    if (log_fd_ >= 0) close(log_fd_);
    log_fd_ = std::exchange(spare_fd_, -1);
  } else {
    fail("cannot rename " + spare_file_.string());
  }
  sync_directory();
}

void ChangeLog::sync_directory() const {
  if (fsync(dir_fd_) != 0) fail("cannot sync " + dir_.string());
}

}  // namespace dynamod
