/* The C reference for bench/: auth-sidecar's `validate` as a hand-written C program, libc only.

   What the machine allows: newline-delimited JSON-RPC 2.0 on stdin and stdout, one read(2) per batch of input and
   one write(2) for all the answers to it, JSON parsed by hand into a flat array of nodes, the rules of
   docs/validation-rules.md (password preset `standard`, purposes `register` and `login`, English messages) applied
   to bytes. The runner compiles it with `cc -O2` into its scratch directory, with the common-password list
   generated beside it as common_passwords.h (sorted; looked up with bsearch), and holds it to the same answer
   check as every other implementation.

   Simpler than the sidecar where the bench's corpus never looks: no duplicate-key detection, no LSP framing,
   no concurrency or cancellation, and a lone surrogate escape (\ud800) is a parse error rather than escaped back. */
#define _GNU_SOURCE /* memrchr */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common_passwords.h"

#define MAX_MESSAGE_BYTES (1 << 20)
#define MAX_DEPTH 64

/* MARK: output buffer */

static char *out;
static size_t out_len, out_cap;

static void reserve(size_t more) {
  if (out_len + more <= out_cap) return;
  while (out_len + more > out_cap) out_cap = out_cap ? out_cap * 2 : 1 << 16;
  out = realloc(out, out_cap);
  if (!out) abort();
}

static void put(const char *bytes, size_t len) {
  reserve(len);
  memcpy(out + out_len, bytes, len);
  out_len += len;
}

#define PUT(literal) put(literal, sizeof(literal) - 1)

static void put_json_string(const char *s, size_t len) {
  static const char hex[] = "0123456789abcdef";
  reserve(len * 6 + 2);
  out[out_len++] = '"';
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      out[out_len++] = '\\';
      out[out_len++] = (char)c;
    } else if (c < 0x20) {
      switch (c) {
        case '\n': out[out_len++] = '\\'; out[out_len++] = 'n'; break;
        case '\r': out[out_len++] = '\\'; out[out_len++] = 'r'; break;
        case '\t': out[out_len++] = '\\'; out[out_len++] = 't'; break;
        default:
          memcpy(out + out_len, "\\u00", 4);
          out[out_len + 4] = hex[c >> 4];
          out[out_len + 5] = hex[c & 15];
          out_len += 6;
      }
    } else {
      out[out_len++] = (char)c;
    }
  }
  out[out_len++] = '"';
}

static void flush_output(void) {
  size_t done = 0;
  while (done < out_len) {
    ssize_t n = write(STDOUT_FILENO, out + done, out_len - done);
    if (n <= 0) exit(1);
    done += (size_t)n;
  }
  out_len = 0;
}

/* MARK: JSON parsing into nodes */

enum kind { J_NULL, J_TRUE, J_FALSE, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT };

struct node {
  enum kind kind;
  const char *text; /* J_STRING: decoded UTF-8; J_NUMBER: the literal as written */
  size_t len;
  int first;  /* J_ARRAY, J_OBJECT: the first child (an object's children are its keys) */
  int next;   /* the next sibling */
  int value;  /* a key: its value */
  int count;  /* J_ARRAY, J_OBJECT: how many children */
};

static struct node *nodes;
static int node_count, node_cap;
static char *decoded; /* string contents, decoded: never longer than the line */
static size_t decoded_len;
static char *scratch; /* normalized values: never longer than the line plus "+86" per field */
static size_t scratch_len;

struct parser {
  const char *p, *end;
  int depth;
};

static int new_node(enum kind kind) {
  if (node_count == node_cap) {
    node_cap = node_cap ? node_cap * 2 : 256;
    nodes = realloc(nodes, (size_t)node_cap * sizeof *nodes);
    if (!nodes) abort();
  }
  nodes[node_count] = (struct node){kind, NULL, 0, -1, -1, -1, 0};
  return node_count++;
}

static void skip_space(struct parser *ps) {
  while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) ps->p++;
}

static int hex4(const char *p) {
  int v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= c - '0';
    else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
    else return -1;
  }
  return v;
}

static void put_utf8(uint32_t cp) {
  char *d = decoded + decoded_len;
  if (cp < 0x80) { d[0] = (char)cp; decoded_len += 1; }
  else if (cp < 0x800) { d[0] = (char)(0xC0 | cp >> 6); d[1] = (char)(0x80 | (cp & 63)); decoded_len += 2; }
  else if (cp < 0x10000) {
    d[0] = (char)(0xE0 | cp >> 12); d[1] = (char)(0x80 | ((cp >> 6) & 63)); d[2] = (char)(0x80 | (cp & 63));
    decoded_len += 3;
  } else {
    d[0] = (char)(0xF0 | cp >> 18); d[1] = (char)(0x80 | ((cp >> 12) & 63));
    d[2] = (char)(0x80 | ((cp >> 6) & 63)); d[3] = (char)(0x80 | (cp & 63));
    decoded_len += 4;
  }
}

/* The length of the well-formed UTF-8 sequence at p (0 when it is not one). */
static int utf8_length(const unsigned char *p, const unsigned char *end) {
  unsigned char c = p[0];
  if (c < 0x80) return 1;
  int n;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) { n = 2; cp = c & 31; }
  else if (c >= 0xE0 && c <= 0xEF) { n = 3; cp = c & 15; }
  else if (c >= 0xF0 && c <= 0xF4) { n = 4; cp = c & 7; }
  else return 0;
  if (end - p < n) return 0;
  for (int i = 1; i < n; i++) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (p[i] & 63);
  }
  if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
    return 0;
  return n;
}

static int parse_value(struct parser *ps);

static int parse_string(struct parser *ps) {
  ps->p++; /* the opening quote */
  int index = new_node(J_STRING);
  char *start = decoded + decoded_len;
  while (ps->p < ps->end) {
    unsigned char c = (unsigned char)*ps->p;
    if (c == '"') {
      ps->p++;
      nodes[index].text = start;
      nodes[index].len = (size_t)(decoded + decoded_len - start);
      return index;
    }
    if (c < 0x20) return -1;
    if (c == '\\') {
      if (ps->end - ps->p < 2) return -1;
      char e = ps->p[1];
      ps->p += 2;
      switch (e) {
        case '"': decoded[decoded_len++] = '"'; break;
        case '\\': decoded[decoded_len++] = '\\'; break;
        case '/': decoded[decoded_len++] = '/'; break;
        case 'b': decoded[decoded_len++] = '\b'; break;
        case 'f': decoded[decoded_len++] = '\f'; break;
        case 'n': decoded[decoded_len++] = '\n'; break;
        case 'r': decoded[decoded_len++] = '\r'; break;
        case 't': decoded[decoded_len++] = '\t'; break;
        case 'u': {
          if (ps->end - ps->p < 4) return -1;
          int cp = hex4(ps->p);
          if (cp < 0) return -1;
          ps->p += 4;
          if (cp >= 0xDC00 && cp <= 0xDFFF) return -1;
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u') return -1;
            int low = hex4(ps->p + 2);
            if (low < 0xDC00 || low > 0xDFFF) return -1;
            ps->p += 6;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          put_utf8((uint32_t)cp);
          break;
        }
        default: return -1;
      }
      continue;
    }
    int n = utf8_length((const unsigned char *)ps->p, (const unsigned char *)ps->end);
    if (n == 0) return -1;
    memcpy(decoded + decoded_len, ps->p, (size_t)n);
    decoded_len += (size_t)n;
    ps->p += n;
  }
  return -1;
}

static int parse_number(struct parser *ps) {
  const char *start = ps->p, *p = ps->p, *end = ps->end;
  if (p < end && *p == '-') p++;
  if (p < end && *p == '0') p++;
  else if (p < end && *p >= '1' && *p <= '9') while (p < end && *p >= '0' && *p <= '9') p++;
  else return -1;
  if (p < end && *p == '.') {
    p++;
    if (!(p < end && *p >= '0' && *p <= '9')) return -1;
    while (p < end && *p >= '0' && *p <= '9') p++;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < end && (*p == '+' || *p == '-')) p++;
    if (!(p < end && *p >= '0' && *p <= '9')) return -1;
    while (p < end && *p >= '0' && *p <= '9') p++;
  }
  int index = new_node(J_NUMBER);
  nodes[index].text = start;
  nodes[index].len = (size_t)(p - start);
  ps->p = p;
  return index;
}

static int parse_literal(struct parser *ps, const char *word, enum kind kind) {
  size_t n = strlen(word);
  if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) return -1;
  ps->p += n;
  return new_node(kind);
}

/* An array's or object's children, linked in order; an object's children are keys, each with its value. */
static int parse_container(struct parser *ps, bool object) {
  if (++ps->depth > MAX_DEPTH) return -1;
  ps->p++;
  int index = new_node(object ? J_OBJECT : J_ARRAY), last = -1;
  skip_space(ps);
  if (ps->p < ps->end && *ps->p == (object ? '}' : ']')) {
    ps->p++;
    ps->depth--;
    return index;
  }
  while (true) {
    skip_space(ps);
    int child;
    if (object) {
      if (ps->p >= ps->end || *ps->p != '"') return -1;
      child = parse_string(ps);
      if (child < 0) return -1;
      skip_space(ps);
      if (ps->p >= ps->end || *ps->p != ':') return -1;
      ps->p++;
      skip_space(ps);
      int value = parse_value(ps);
      if (value < 0) return -1;
      nodes[child].value = value;
    } else {
      child = parse_value(ps);
      if (child < 0) return -1;
    }
    if (last < 0) nodes[index].first = child;
    else nodes[last].next = child;
    last = child;
    nodes[index].count++;
    skip_space(ps);
    if (ps->p >= ps->end) return -1;
    if (*ps->p == ',') { ps->p++; continue; }
    if (*ps->p == (object ? '}' : ']')) { ps->p++; break; }
    return -1;
  }
  ps->depth--;
  return index;
}

static int parse_value(struct parser *ps) {
  if (ps->p >= ps->end) return -1;
  switch (*ps->p) {
    case '{': return parse_container(ps, true);
    case '[': return parse_container(ps, false);
    case '"': return parse_string(ps);
    case 't': return parse_literal(ps, "true", J_TRUE);
    case 'f': return parse_literal(ps, "false", J_FALSE);
    case 'n': return parse_literal(ps, "null", J_NULL);
    default: return parse_number(ps);
  }
}

/* The value of `key` in object `object`, or -1. */
static int member(int object, const char *key) {
  size_t n = strlen(key);
  for (int k = nodes[object].first; k >= 0; k = nodes[k].next)
    if (nodes[k].len == n && memcmp(nodes[k].text, key, n) == 0) return nodes[k].value;
  return -1;
}

static bool is_string(int index, const char *text) {
  return index >= 0 && nodes[index].kind == J_STRING && nodes[index].len == strlen(text) &&
         memcmp(nodes[index].text, text, nodes[index].len) == 0;
}

/* MARK: the rules, on bytes */

struct text {
  const char *s;
  size_t len;
};

/* The code point at s (well-formed: the parser checked), and its length in *n. */
static uint32_t decode_at(const unsigned char *s, int *n) {
  if (s[0] < 0x80) { *n = 1; return s[0]; }
  if (s[0] < 0xE0) { *n = 2; return (uint32_t)(s[0] & 31) << 6 | (s[1] & 63); }
  if (s[0] < 0xF0) { *n = 3; return (uint32_t)(s[0] & 15) << 12 | (uint32_t)(s[1] & 63) << 6 | (s[2] & 63); }
  *n = 4;
  return (uint32_t)(s[0] & 7) << 18 | (uint32_t)(s[1] & 63) << 12 | (uint32_t)(s[2] & 63) << 6 | (s[3] & 63);
}

static bool is_white_space(uint32_t c) {
  return (c >= 9 && c <= 13) || c == ' ' || c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
         c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

/* Unicode White_Space trimmed from both ends. */
static struct text trim(struct text t) {
  const unsigned char *s = (const unsigned char *)t.s;
  size_t start = 0, end = t.len;
  while (start < end) {
    int n;
    if (!is_white_space(decode_at(s + start, &n))) break;
    start += (size_t)n;
  }
  while (end > start) {
    size_t back = end - 1;
    while (back > start && (s[back] & 0xC0) == 0x80) back--;
    int n;
    if (!is_white_space(decode_at(s + back, &n))) break;
    end = back;
  }
  return (struct text){t.s + start, end - start};
}

static size_t code_points(struct text t) {
  size_t count = 0;
  for (size_t i = 0; i < t.len; i++) count += ((unsigned char)t.s[i] & 0xC0) != 0x80;
  return count;
}

enum code { REQUIRED, TOO_SHORT, TOO_LONG, INVALID_CHARACTERS, INVALID_FORMAT, TOO_COMMON };
static const char *const CODE_NAMES[] = {"required", "too_short", "too_long", "invalid_characters",
                                         "invalid_format", "too_common"};
enum rule { USERNAME, EMAIL, PHONE, PASSWORD };
static const char *const RULE_NAMES[] = {"username", "email", "phone", "password"};

#define CHARACTERS "can only contain English letters, digits, underscores (_) and hyphens (-)."
static const char *const MESSAGES[4][6] = {
    {"Username is required.", "Username must be at least 3 characters.", "Username must be at most 30 characters.",
     "Username " CHARACTERS, NULL, NULL},
    {"Email address is required.", NULL, "Email address must be at most 254 characters.", NULL,
     "Email address is not valid.", NULL},
    {"Phone number is required.", NULL, NULL, NULL, "Phone number is not valid.", NULL},
    {"Password is required.", "Password must be at least 8 characters.", "Password must be at most 128 characters.",
     "Password cannot contain control characters.", NULL,
     "Password is too common. Choose one that is harder to guess."},
};
/* An `account` field is named "Account" whatever its kind. */
static const char *const ACCOUNT_MESSAGES[3][6] = {
    {"Account is required.", "Account must be at least 3 characters.", "Account must be at most 30 characters.",
     "Account " CHARACTERS, NULL, NULL},
    {NULL, NULL, "Account must be at most 254 characters.", NULL, "Account is not a valid email address.", NULL},
    {NULL, NULL, NULL, NULL, "Account is not a valid phone number.", NULL},
};

struct outcome {
  enum rule rule;
  bool account;
  char *value; /* normalized, in `scratch` */
  size_t value_len;
  bool has_value;
  int codes[6];
  int code_count;
};

static char *scratch_alloc(size_t len) {
  char *p = scratch + scratch_len;
  scratch_len += len;
  return p;
}

static void set_value(struct outcome *o, const char *s, size_t len) {
  o->value = scratch_alloc(len);
  memcpy(o->value, s, len);
  o->value_len = len;
  o->has_value = true;
}

static bool is_alnum(unsigned char c) { return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'); }
static bool is_alpha(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static void check_username(struct text t, bool reg, struct outcome *o) {
  set_value(o, t.s, t.len);
  if (t.len == 0) { o->codes[o->code_count++] = REQUIRED; return; }
  size_t n = code_points(t);
  if (reg && n < 3) o->codes[o->code_count++] = TOO_SHORT;
  if (n > 30) o->codes[o->code_count++] = TOO_LONG;
  for (size_t i = 0; i < t.len; i++) {
    unsigned char c = (unsigned char)t.s[i];
    if (!is_alnum(c) && c != '_' && c != '-') { o->codes[o->code_count++] = INVALID_CHARACTERS; break; }
  }
}

static bool is_email(const char *s, size_t len) {
  const char *at = NULL;
  for (size_t i = len; i > 0; i--) if (s[i - 1] == '@') { at = s + i - 1; break; }
  if (!at) return false;
  size_t local = (size_t)(at - s);
  if (local < 1 || local > 64 || s[0] == '.' || at[-1] == '.') return false;
  for (size_t i = 0; i < local; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!is_alnum(c) && !strchr("._%+-", c)) return false;
    if (c == '.' && i + 1 < local && s[i + 1] == '.') return false;
  }
  const char *domain = at + 1, *end = s + len, *label = domain;
  int labels = 0;
  for (const char *p = domain;; p++) {
    if (p == end || *p == '.') {
      size_t n = (size_t)(p - label);
      if (n == 0 || label[0] == '-' || p[-1] == '-') return false;
      for (const char *q = label; q < p; q++) if (!is_alnum((unsigned char)*q) && *q != '-') return false;
      labels++;
      if (p == end) {
        if (labels < 2 || n < 2 || n > 64) return false;
        for (const char *q = label; q < p; q++) if (!is_alpha((unsigned char)*q)) return false;
        return true;
      }
      label = p + 1;
    }
  }
}

static void check_email(struct text t, bool reg, struct outcome *o) {
  set_value(o, t.s, t.len);
  if (t.len == 0) { o->codes[o->code_count++] = REQUIRED; return; }
  char *at = memrchr(o->value, '@', o->value_len);
  if (at)
    for (char *p = at + 1; p < o->value + o->value_len; p++) if (*p >= 'A' && *p <= 'Z') *p |= 0x20;
  if (code_points(t) > 254) o->codes[o->code_count++] = TOO_LONG;
  if (reg && !is_email(o->value, o->value_len)) o->codes[o->code_count++] = INVALID_FORMAT;
}

/* The trimmed value without " -.()"; returns its length (written to `compact`). */
static size_t compact_phone(struct text t, char *compact) {
  size_t n = 0;
  for (size_t i = 0; i < t.len; i++)
    if (!strchr(" -.()", t.s[i]) || t.s[i] == 0) compact[n++] = t.s[i];
  return n;
}

static bool all_digits(const char *s, size_t len) {
  for (size_t i = 0; i < len; i++) if (!is_digit((unsigned char)s[i])) return false;
  return true;
}

static void check_phone(struct text t, struct outcome *o) {
  if (t.len == 0) { set_value(o, t.s, 0); o->codes[o->code_count++] = REQUIRED; return; }
  char *compact = scratch_alloc(t.len);
  size_t n = compact_phone(t, compact);
  if (n >= 9 && n <= 16 && compact[0] == '+' && compact[1] >= '1' && compact[1] <= '9' &&
      all_digits(compact + 1, n - 1)) {
    o->value = compact;
    o->value_len = n;
    o->has_value = true;
  } else if (n == 11 && compact[0] == '1' && compact[1] >= '3' && compact[1] <= '9' && all_digits(compact, n)) {
    char e164[14] = "+86";
    memcpy(e164 + 3, compact, n);
    set_value(o, e164, n + 3);
  } else {
    o->value = compact;
    o->value_len = n;
    o->has_value = true;
    o->codes[o->code_count++] = INVALID_FORMAT;
  }
}

static int compare_entry(const void *key, const void *entry) {
  return strcmp((const char *)key, *(const char *const *)entry);
}

static bool is_common(struct text t) {
  char lowered[64];
  if (t.len >= sizeof lowered) return false;
  for (size_t i = 0; i < t.len; i++) {
    unsigned char c = (unsigned char)t.s[i];
    if (c >= 0x80 || c == 0) return false;
    lowered[i] = (char)(c >= 'A' && c <= 'Z' ? c | 0x20 : c);
  }
  lowered[t.len] = 0;
  return bsearch(lowered, COMMON_PASSWORDS, sizeof COMMON_PASSWORDS / sizeof *COMMON_PASSWORDS,
                 sizeof *COMMON_PASSWORDS, compare_entry) != NULL;
}

static void check_password(struct text raw, bool reg, struct outcome *o) {
  if (raw.len == 0) { o->codes[o->code_count++] = REQUIRED; return; }
  size_t n = code_points(raw);
  if (reg && n < 8) o->codes[o->code_count++] = TOO_SHORT;
  if (n > 128) o->codes[o->code_count++] = TOO_LONG;
  if (!reg) return;
  for (size_t i = 0; i < raw.len; i++) {
    unsigned char c = (unsigned char)raw.s[i];
    if (c < 0x20 || c == 0x7F) { o->codes[o->code_count++] = INVALID_CHARACTERS; break; }
  }
  if (is_common(raw)) o->codes[o->code_count++] = TOO_COMMON;
}

static enum rule classify_account(struct text t) {
  if (memchr(t.s, '@', t.len)) return EMAIL;
  size_t mark = scratch_len;
  char *compact = scratch_alloc(t.len);
  size_t n = compact_phone(t, compact);
  scratch_len = mark;
  size_t digits = n > 0 && compact[0] == '+' ? n - 1 : n;
  if (digits >= 8 && all_digits(compact + (n - digits), digits)) return PHONE;
  return USERNAME;
}

/* MARK: answers */

static void put_id(int id) {
  if (id < 0 || nodes[id].kind == J_NULL) PUT("null");
  else if (nodes[id].kind == J_STRING) put_json_string(nodes[id].text, nodes[id].len);
  else put(nodes[id].text, nodes[id].len);
}

static void put_error(int id, const char *code, const char *kind, const char *message, size_t message_len,
                      const char *detail, const char *detail_value, size_t detail_len) {
  PUT("{\"jsonrpc\":\"2.0\",\"id\":");
  put_id(id);
  PUT(",\"error\":{\"code\":");
  put(code, strlen(code));
  PUT(",\"message\":");
  put_json_string(message, message_len);
  PUT(",\"data\":{\"kind\":\"");
  put(kind, strlen(kind));
  PUT("\",\"retryable\":false");
  if (detail) {
    PUT(",\"");
    put(detail, strlen(detail));
    PUT("\":");
    put_json_string(detail_value, detail_len);
  }
  PUT("}}}");
}

static void invalid_request(int id) {
  put_error(id, "-32600", "invalid_request", "Invalid request.", 16, NULL, NULL, 0);
}

static void invalid_params(int id, const char *message, const char *field, size_t field_len) {
  char text[512];
  int n = snprintf(text, sizeof text, "Invalid params: %s", message);
  put_error(id, "-32602", "invalid_params", text, (size_t)n, field ? "field" : NULL, field, field_len);
}

static const char *const FIELDS[] = {"account", "username", "email", "phone", "password"};
static const char *const OPTIONS[] = {"purpose", "locale", "profile"};

static const char *json_type(int index) {
  switch (nodes[index].kind) {
    case J_NULL: return "null";
    case J_TRUE: case J_FALSE: return "boolean";
    case J_OBJECT: return "object";
    case J_ARRAY: return "array";
    default: return "number";
  }
}

static void evaluate(const char *name, int value, bool reg, struct outcome *o) {
  struct text raw = {nodes[value].text, nodes[value].len};
  *o = (struct outcome){.account = strcmp(name, "account") == 0};
  if (o->account) o->rule = classify_account(trim(raw));
  else if (strcmp(name, "username") == 0) o->rule = USERNAME;
  else if (strcmp(name, "email") == 0) o->rule = EMAIL;
  else if (strcmp(name, "phone") == 0) o->rule = PHONE;
  else o->rule = PASSWORD;
  switch (o->rule) {
    case USERNAME: check_username(trim(raw), reg, o); break;
    case EMAIL: check_email(trim(raw), reg, o); break;
    case PHONE: check_phone(trim(raw), o); break;
    case PASSWORD: check_password(raw, reg, o); break;
  }
}

static void put_field(const char *name, const struct outcome *o) {
  PUT("\"");
  put(name, strlen(name));
  PUT("\":{\"valid\":");
  if (o->code_count) PUT("false"); else PUT("true");
  if (o->has_value) {
    PUT(",\"value\":");
    put_json_string(o->value, o->value_len);
  }
  if (o->account) {
    PUT(",\"kind\":\"");
    put(RULE_NAMES[o->rule], strlen(RULE_NAMES[o->rule]));
    PUT("\"");
  }
  PUT(",\"errors\":[");
  for (int i = 0; i < o->code_count; i++) {
    const char *message = o->account ? ACCOUNT_MESSAGES[o->rule][o->codes[i]] : MESSAGES[o->rule][o->codes[i]];
    if (i) PUT(",");
    PUT("{\"code\":\"");
    put(CODE_NAMES[o->codes[i]], strlen(CODE_NAMES[o->codes[i]]));
    PUT("\",\"message\":");
    put_json_string(message, strlen(message));
    PUT("}");
  }
  PUT("]}");
}

static void validate(int id, int params) {
  if (params >= 0 && nodes[params].kind == J_NULL) params = -1;
  if (params >= 0 && nodes[params].kind != J_OBJECT) {
    invalid_params(id, "params must be an object.", NULL, 0);
    return;
  }
  int values[5] = {-1, -1, -1, -1, -1}, purpose = -1, sent = 0;
  if (params >= 0) {
    for (int k = nodes[params].first; k >= 0; k = nodes[k].next) {
      int slot = -1;
      bool option = false;
      for (int f = 0; f < 5; f++) if (is_string(k, FIELDS[f])) slot = f;
      for (int f = 0; f < 3; f++) if (is_string(k, OPTIONS[f])) option = true;
      char message[400];
      if (slot < 0 && !option) {
        size_t mark = out_len; /* the key JSON-escaped, borrowed from the output buffer */
        put_json_string(nodes[k].text, nodes[k].len < 300 ? nodes[k].len : 300);
        int n = snprintf(message, sizeof message, "unknown parameter %.*s.", (int)(out_len - mark), out + mark);
        out_len = mark;
        invalid_params(id, message, nodes[k].text, nodes[k].len);
        (void)n;
        return;
      }
      int v = nodes[k].value;
      if (nodes[v].kind != J_STRING) {
        snprintf(message, sizeof message, "\"%.*s\" must be a string, not %s.", (int)nodes[k].len, nodes[k].text,
                 json_type(v));
        invalid_params(id, message, nodes[k].text, nodes[k].len);
        return;
      }
      if (slot >= 0) { values[slot] = v; sent++; }
      if (is_string(k, "purpose")) purpose = v;
    }
  }
  if (purpose >= 0 && !is_string(purpose, "register") && !is_string(purpose, "login")) {
    invalid_params(id, "\"purpose\" must be \"register\" or \"login\".", "purpose", 7);
    return;
  }
  if (sent == 0) {
    invalid_params(id, "give at least one of account, username, email, phone, password.", NULL, 0);
    return;
  }
  bool reg = purpose < 0 || is_string(purpose, "register");
  bool valid = true;
  struct outcome outcomes[5];
  for (int f = 0; f < 5; f++) {
    if (values[f] < 0) continue;
    evaluate(FIELDS[f], values[f], reg, &outcomes[f]);
    if (outcomes[f].code_count) valid = false;
  }
  PUT("{\"jsonrpc\":\"2.0\",\"id\":");
  put_id(id);
  PUT(",\"result\":{\"valid\":");
  if (valid) PUT("true"); else PUT("false");
  PUT(",\"fields\":{");
  bool first = true;
  for (int f = 0; f < 5; f++) {
    if (values[f] < 0) continue;
    if (!first) PUT(",");
    first = false;
    put_field(FIELDS[f], &outcomes[f]);
  }
  PUT("}}}");
}

/* Answers one request object; returns false for a notification (nothing written). */
static bool handle_request(int message) {
  if (nodes[message].kind != J_OBJECT) { invalid_request(-1); return true; }
  int id = member(message, "id");
  if (id >= 0 && nodes[id].kind != J_NULL && nodes[id].kind != J_STRING && nodes[id].kind != J_NUMBER) {
    invalid_request(-1);
    return true;
  }
  int method = member(message, "method"), params = member(message, "params");
  if (!is_string(member(message, "jsonrpc"), "2.0") || method < 0 || nodes[method].kind != J_STRING ||
      (params >= 0 && nodes[params].kind != J_OBJECT && nodes[params].kind != J_ARRAY)) {
    invalid_request(id);
    return true;
  }
  if (id < 0) return false; /* a notification: nothing is answered, so nothing needs checking */
  if (is_string(method, "validate")) {
    validate(id, params);
  } else {
    char text[] = "Method not found.";
    put_error(id, "-32601", "method_not_found", text, sizeof text - 1, "method", nodes[method].text,
              nodes[method].len);
  }
  return true;
}

static void handle_line(const char *line, size_t len) {
  node_count = 0;
  decoded_len = 0;
  scratch_len = 0;
  struct parser ps = {line, line + len, 0};
  skip_space(&ps);
  int root = parse_value(&ps);
  skip_space(&ps);
  if (root < 0 || ps.p != ps.end) {
    put_error(-1, "-32700", "parse_error", "Parse error.", 12, NULL, NULL, 0);
    PUT("\n");
    return;
  }
  if (nodes[root].kind != J_ARRAY) {
    if (handle_request(root)) PUT("\n");
    return;
  }
  if (nodes[root].count == 0) {
    invalid_request(-1);
    PUT("\n");
    return;
  }
  size_t mark = out_len;
  PUT("[");
  bool any = false;
  for (int item = nodes[root].first; item >= 0; item = nodes[item].next) {
    size_t before = out_len;
    if (any) PUT(",");
    if (handle_request(item)) any = true;
    else out_len = before;
  }
  if (any) PUT("]\n");
  else out_len = mark;
}

static bool is_blank(const char *s, size_t len) {
  for (size_t i = 0; i < len; i++) if (!strchr(" \t\r\n\v\f", s[i])) return false;
  return true;
}

int main(void) {
  size_t cap = MAX_MESSAGE_BYTES + 4096, len = 0;
  char *in = malloc(cap);
  decoded = malloc(cap);
  scratch = malloc(cap + 256);
  if (!in || !decoded || !scratch) return 1;
  bool skipping = false; /* inside a line longer than the limit, already answered */
  while (true) {
    ssize_t n = read(STDIN_FILENO, in + len, cap - len);
    if (n < 0) return 1;
    bool eof = n == 0;
    len += (size_t)n;
    size_t start = 0;
    while (true) {
      char *newline = memchr(in + start, '\n', len - start);
      if (!newline && !(eof && start < len)) break;
      size_t end = newline ? (size_t)(newline - in) : len;
      if (skipping) {
        skipping = false;
      } else {
        size_t line_len = end - start;
        if (line_len && in[start + line_len - 1] == '\r') line_len--;
        if (line_len > MAX_MESSAGE_BYTES) {
          invalid_request(-1);
          PUT("\n");
        } else if (!is_blank(in + start, line_len)) {
          handle_line(in + start, line_len);
        }
      }
      start = newline ? end + 1 : len;
    }
    memmove(in, in + start, len - start);
    len -= start;
    if (len == cap) { /* a line longer than the limit: answer it now, drop the rest of it as it comes */
      if (!skipping) { invalid_request(-1); PUT("\n"); }
      skipping = true;
      len = 0;
    }
    flush_output();
    if (eof) return 0;
  }
}
