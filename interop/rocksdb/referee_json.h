// The JSON writer: a document written as it is built. Each value goes on its own line, indented,
// except inside an object or array opened `compact` (a tree's file, a per-level row), which stays
// on one line.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace referee {

class Json {
 public:
  std::string out;

  void begin_object(bool compact = false) { open('{', compact); }
  void end_object() { close('}'); }
  void begin_array(bool compact = false) { open('[', compact); }
  void end_array() { close(']'); }

  Json& key(const std::string& k) {
    separate();
    quote(k);
    out += compact() ? ":" : ": ";
    after_key_ = true;
    return *this;
  }
  void str(const std::string& v) {
    separate();
    quote(v);
  }
  void num(uint64_t v) {
    separate();
    out += std::to_string(v);
  }
  void num(int64_t v) {
    separate();
    out += std::to_string(v);
  }
  void num(int v) { num(static_cast<int64_t>(v)); }
  void real(double v) {
    separate();
    if (!std::isfinite(v)) {
      out += "null";
      return;
    }
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    out += buf;
  }
  void boolean(bool v) {
    separate();
    out += v ? "true" : "false";
  }
  void null() {
    separate();
    out += "null";
  }
  // An already-written JSON value, embedded as is.
  void raw(const std::string& v) {
    separate();
    out += v;
  }

  // Shorthands for a key and its value.
  void field(const std::string& k, uint64_t v) { key(k).num(v); }
  void field(const std::string& k, int v) { key(k).num(v); }
  void field(const std::string& k, const std::string& v) { key(k).str(v); }
  void field(const std::string& k, const char* v) { key(k).str(v); }
  void field_bool(const std::string& k, bool v) { key(k).boolean(v); }
  void field_real(const std::string& k, double v) { key(k).real(v); }

 private:
  struct Frame {
    bool first;
    bool compact;
  };
  std::vector<Frame> stack_;
  bool after_key_ = false;

  bool compact() const { return !stack_.empty() && stack_.back().compact; }
  void newline();
  void separate();
  void open(char c, bool want_compact);
  void close(char c);
  void quote(const std::string& s);
};

}  // namespace referee
