#include "referee_json.h"

namespace referee {

void Json::newline() {
  out += '\n';
  out.append(2 * stack_.size(), ' ');
}

void Json::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  if (!stack_.back().first) out += compact() ? ", " : ",";
  stack_.back().first = false;
  if (!compact()) newline();
}

void Json::open(char c, bool want_compact) {
  separate();
  out += c;
  stack_.push_back({true, want_compact || compact()});
}

void Json::close(char c) {
  Frame f = stack_.back();
  stack_.pop_back();
  if (!f.first && !f.compact) newline();
  out += c;
}

void Json::quote(const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

}  // namespace referee
