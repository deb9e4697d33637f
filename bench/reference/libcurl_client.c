/* libcurl from C: bench/remote_login.py's fourth side, the floor any client built on libcurl stands on.

   The same HTTP calls as the sidecar's "client alone" side (auth-http-bench), through libcurl driven the way
   the sidecar drives it (CurlEngine): the multi interface through its socket callbacks, a thread waiting in
   epoll_wait on the sockets libcurl asks for and a timerfd for its timer, the request added and sent on the
   thread that read it, the answer read and written out by the waiting thread. What it leaves out is everything
   Swift: so the difference between the two sides is what the sidecar's HTTP client adds on top of libcurl.

   One call per stdin line, tab-separated: METHOD, URL, header lines joined by \x1f, body (may be empty; no tab or
   newline in any field). One answer line per call: `status<TAB>body`, the body's newlines turned into spaces
   (whitespace between JSON tokens), or `0<TAB>curl error` when the transfer failed. One call at a time: the
   bench writes the next line after reading the answer. Compiled by the bench with `cc -O2 ... -lcurl`. */
#define _GNU_SOURCE
#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#define MAX_BODY (1 << 20)

static CURLM *multi;
static CURL *easy;
static int epoll_fd, timer_fd;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct curl_slist *headers;
static char body[MAX_BODY + 2];
static size_t body_len;

static size_t on_body(char *bytes, size_t size, size_t count, void *context) {
  (void)context;
  size_t length = size * count;
  if (body_len + length > MAX_BODY) return 0;
  memcpy(body + body_len, bytes, length);
  body_len += length;
  return length;
}

static int on_socket(CURL *handle, curl_socket_t socket, int what, void *context, void *socket_context) {
  (void)handle, (void)context, (void)socket_context;
  if (what == CURL_POLL_REMOVE) {
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, socket, NULL);
    return 0;
  }
  struct epoll_event event = {.data.fd = socket};
  event.events = (what & CURL_POLL_IN ? EPOLLIN : 0) | (what & CURL_POLL_OUT ? EPOLLOUT : 0);
  if (epoll_ctl(epoll_fd, EPOLL_CTL_MOD, socket, &event) != 0) epoll_ctl(epoll_fd, EPOLL_CTL_ADD, socket, &event);
  return 0;
}

/* What libcurl last asked of its timer and is not applied yet (ms from now, -1 none), or NO_REQUEST. */
#define NO_REQUEST (-2)
static long requested_timeout = NO_REQUEST;

static int on_timer(CURLM *handle, long milliseconds, void *context) {
  (void)handle, (void)context;
  /* Applied after the call that asked: libcurl must not be called from its own callback. */
  requested_timeout = milliseconds;
  return 0;
}

/* A timer due at once runs now, on this thread; a later one is left to the timerfd (as `CurlMulti.applyTimer`). */
static void apply_timer(void) {
  int running;
  for (int rounds = 0; requested_timeout == 0 && rounds < 8; rounds++) {
    requested_timeout = NO_REQUEST;
    curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
  }
  if (requested_timeout == NO_REQUEST) return;
  struct itimerspec when = {0};
  if (requested_timeout > 0) {
    when.it_value.tv_sec = requested_timeout / 1000;
    when.it_value.tv_nsec = (requested_timeout % 1000) * 1000000;
  } else if (requested_timeout == 0) {
    when.it_value.tv_nsec = 1; /* still due after 8 rounds: the waiting thread runs it */
  }
  requested_timeout = NO_REQUEST;
  timerfd_settime(timer_fd, 0, &when, NULL);
}

static void act(curl_socket_t socket, int bits) {
  int running;
  curl_multi_socket_action(multi, socket, bits, &running);
  apply_timer();
}

/* Writes the answer of every finished transfer; called with `lock` held. */
static void answer_finished(void) {
  int left;
  CURLMsg *message;
  while ((message = curl_multi_info_read(multi, &left))) {
    if (message->msg != CURLMSG_DONE) continue;
    long status = 0;
    curl_easy_getinfo(message->easy_handle, CURLINFO_RESPONSE_CODE, &status);
    curl_multi_remove_handle(multi, message->easy_handle);
    /* Removing a handle may move libcurl's timer. */
    apply_timer();
    curl_slist_free_all(headers);
    headers = NULL;
    static char line[MAX_BODY + 64]; /* only this function writes it, under `lock` */
    int length;
    if (message->data.result != CURLE_OK) {
      length = snprintf(line, sizeof line, "0\t%s\n", curl_easy_strerror(message->data.result));
    } else {
      for (size_t i = 0; i < body_len; i++)
        if (body[i] == '\n' || body[i] == '\r' || body[i] == '\t') body[i] = ' ';
      length = snprintf(line, sizeof line, "%ld\t%.*s\n", status, (int)body_len, body);
    }
    for (int written = 0; written < length;) {
      ssize_t n = write(STDOUT_FILENO, line + written, (size_t)(length - written));
      if (n <= 0) exit(1);
      written += (int)n;
    }
  }
}

static void *wait_for_network(void *unused) {
  (void)unused;
  struct epoll_event events[16];
  for (;;) {
    int count = epoll_wait(epoll_fd, events, 16, -1);
    if (count < 0) continue;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < count; i++) {
      if (events[i].data.fd == timer_fd) {
        unsigned long long expirations;
        if (read(timer_fd, &expirations, sizeof expirations) < 0) { /* spurious: act anyway */ }
        act(CURL_SOCKET_TIMEOUT, 0);
      } else {
        int bits = (events[i].events & EPOLLIN ? CURL_CSELECT_IN : 0) |
                   (events[i].events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                   (events[i].events & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
        act(events[i].data.fd, bits);
      }
    }
    answer_finished();
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

int main(void) {
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return 1;
  multi = curl_multi_init();
  easy = curl_easy_init();
  epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  if (!multi || !easy || epoll_fd < 0 || timer_fd < 0) return 1;
  struct epoll_event timer_event = {.events = EPOLLIN, .data.fd = timer_fd};
  epoll_ctl(epoll_fd, EPOLL_CTL_ADD, timer_fd, &timer_event);
  curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, on_socket);
  curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, on_timer);
  pthread_t thread;
  if (pthread_create(&thread, NULL, wait_for_network, NULL) != 0) return 1;

  static char line[MAX_BODY + 8192];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    char *fields[4] = {line, NULL, NULL, NULL};
    for (int i = 1; i < 4; i++) {
      char *tab = fields[i - 1] ? strchr(fields[i - 1], '\t') : NULL;
      if (!tab) break;
      *tab = 0;
      fields[i] = tab + 1;
    }
    if (!fields[1]) return 2;
    pthread_mutex_lock(&lock);
    curl_easy_reset(easy);
    curl_easy_setopt(easy, CURLOPT_URL, fields[1]);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    for (char *header = fields[2]; header && *header;) {
      char *next = strchr(header, '\x1f');
      if (next) *next = 0;
      headers = curl_slist_append(headers, header);
      header = next ? next + 1 : NULL;
    }
    headers = curl_slist_append(headers, "Expect:");
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    if (strcmp(fields[0], "POST") == 0) {
      const char *payload = fields[3] ? fields[3] : "";
      curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE, (long)strlen(payload));
      curl_easy_setopt(easy, CURLOPT_COPYPOSTFIELDS, payload);
    } else if (strcmp(fields[0], "GET") != 0) {
      curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, fields[0]);
    }
    body_len = 0;
    curl_multi_add_handle(multi, easy);
    /* Sends on a kept-alive connection before it returns, as the sidecar's submit does. */
    act(CURL_SOCKET_TIMEOUT, 0);
    answer_finished();
    pthread_mutex_unlock(&lock);
  }
  return 0;
}
