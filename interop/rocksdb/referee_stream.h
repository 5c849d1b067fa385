// The decoder of the operation stream on stdin (`lsm ops`: the header "LSMOPS1\n", then tagged
// records; referee.cc's header lists them), read in large blocks. Reading a field may refill the
// buffer, which moves the record being parsed to the buffer's front, so a field is first located
// by its offset in the record (`Field`), and turned into a Slice (`slice`) only once the whole
// record is in the buffer: a key and its value (or a scan's two bounds) are then valid together
// until the next record is read.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "referee_common.h"
#include "rocksdb/slice.h"

namespace referee {

class Stream {
 public:
  struct Field {
    size_t offset;  // from the start of the record
    uint32_t length;
  };

  Stream(std::FILE* f, size_t buffer_bytes) : f_(f), buf_(std::max<size_t>(buffer_bytes, 16)) {}

  // The next byte of the current record (a tag, or the header's), or -1 at the end of the stream.
  int tag() {
    if (!ensure(offset_ + 1)) return -1;
    offset_ += 1;
    return static_cast<unsigned char>(buf_[pos_ + offset_ - 1]);
  }

  // A length-prefixed byte string of the current record.
  Field field(const char* what) {
    if (!ensure(offset_ + 4)) truncated(what);
    uint32_t len;
    std::memcpy(&len, &buf_[pos_ + offset_], 4);  // little-endian, as is every target we build on
    if (len > kMaxLength) {
      fail("stream: a " + std::string(what) + " of " + std::to_string(len) + " bytes at byte " +
           std::to_string(consumed_ + pos_ + offset_) + " (the limit is 1 GiB): not an LSMOPS1 stream?");
    }
    if (!ensure(offset_ + 4 + len)) truncated(what);
    Field f{offset_ + 4, len};
    offset_ += 4 + len;
    return f;
  }

  // A field of the current record, once all of its fields have been read.
  rocksdb::Slice slice(Field f) const { return rocksdb::Slice(&buf_[pos_ + f.offset], f.length); }

  // The current record is fully used: the next tag starts after it.
  void done() {
    pos_ += offset_;
    offset_ = 0;
  }

  uint64_t position() const { return consumed_ + pos_ + offset_; }

 private:
  static constexpr uint32_t kMaxLength = 1u << 30;
  std::FILE* f_;
  std::vector<char> buf_;
  size_t pos_ = 0;     // start of the current record
  size_t offset_ = 0;  // bytes of the current record parsed
  size_t end_ = 0;     // bytes in the buffer
  uint64_t consumed_ = 0;
  bool eof_ = false;

  [[noreturn]] void truncated(const char* what);

  // At least `n` bytes of the current record in the buffer; false if the stream ends first.
  bool ensure(size_t n);
};

// Reads the stream's 8-byte header; a stream without it fails before anything is created.
void read_header(Stream& in);

}  // namespace referee
