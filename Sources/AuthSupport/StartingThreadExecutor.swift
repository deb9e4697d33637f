/// A task executor whose tasks may also be started on the thread that creates them.
///
/// The executor's own thread sleeps between requests; waking it for a new task costs a wake-up on an idle core,
/// and then the task starts with none of what the creating thread just read in its caches. The creating thread
/// (the reader that parsed the request) runs the task itself up to its first wait instead, then goes back to its
/// own work; whatever resumes the task later runs it on the executor's thread as usual.
package protocol StartingThreadExecutor: TaskExecutor {
  /// Calls `start`, which creates tasks on this executor, then runs on the calling thread every job queued so far,
  /// including theirs, until none is left. Jobs queued meanwhile do not wake the executor's thread: this call runs
  /// them.
  func startHere<T>(_ start: () -> T) -> T
}
