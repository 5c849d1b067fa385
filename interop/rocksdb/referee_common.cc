#include "referee_common.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace referee {

void usage_error(const std::string& message) {
  std::fprintf(stderr, "referee: %s\n(usage: referee --db DIR --options OPTIONS_FILE [--block-cache-bytes N] "
               "[--direct-reads auto|on|off] [--wal on|off] [--sync-compactions on|off] [--between restart|continue] [--threads N] "
               "[--time-block-reads on|off] [--filter-plugin on|off] < stream)\n",
               message.c_str());
  std::fflush(stderr);
  std::_Exit(2);
}

void fail(const std::string& message) {
  std::fprintf(stderr, "referee: %s\n", message.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

void check(const rocksdb::Status& s, const std::string& what) {
  if (!s.ok()) fail(what + ": " + s.ToString());
}

std::string hex(const std::string& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

bool parse_on_off(const char* flag, const char* v) {
  if (std::strcmp(v, "on") == 0) return true;
  if (std::strcmp(v, "off") == 0) return false;
  usage_error(std::string(flag) + " must be on or off, got \"" + v + "\"");
}

}  // namespace referee
