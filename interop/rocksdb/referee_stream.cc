#include "referee_stream.h"

#include <cerrno>

namespace referee {

void Stream::truncated(const char* what) {
  fail("stream: truncated " + std::string(what) + " in the record at byte " + std::to_string(consumed_ + pos_));
}

bool Stream::ensure(size_t n) {
  while (end_ - pos_ < n) {
    if (eof_) return false;
    if (pos_ > 0) {  // move the current record to the front
      std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
      end_ -= pos_;
      consumed_ += pos_;
      pos_ = 0;
    }
    if (buf_.size() < n) buf_.resize(std::max(n, buf_.size() * 2));
    size_t got = std::fread(buf_.data() + end_, 1, buf_.size() - end_, f_);
    if (got == 0) {
      if (std::ferror(f_)) fail(std::string("stream: reading stdin: ") + std::strerror(errno));
      eof_ = true;
    }
    end_ += got;
  }
  return true;
}

void read_header(Stream& in) {
  static const char magic[] = "LSMOPS1\n";
  for (int i = 0; i < 8; ++i) {
    int c = in.tag();
    if (c != static_cast<unsigned char>(magic[i])) fail("stdin is not an LSMOPS1 stream (the header \"LSMOPS1\\n\" is missing)");
  }
  in.done();
}

}  // namespace referee
