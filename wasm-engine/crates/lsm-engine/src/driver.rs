//! Who runs the background merger's steps (`merger::MergerCore`): a thread of its own (natively),
//! or the caller, one step at a time (`Merger::stepped`: a seeded test scheduler interleaves the
//! writer's operations with merger steps, so every interleaving replays from its seed). Either
//! way the writer only submits tasks, collects outcomes, and waits for the merger when a write
//! must stall; the stepped driver "waits" by running a merger step itself, which is what the
//! thread would do while the writer blocks.
//!
//! The threads come with the `files` feature (native builds); the browser keeps `Merging::Paced`: a second worker would need the open OPFS files (an OPFS
//! sync access handle belongs to one worker) and the merger's storage handle shared across
//! workers, which wasm32-unknown-unknown's single-threaded memory does not allow.

use crate::job::Job;
use crate::merger::{MergerCore, Outcome, Task};
use crate::storage::Storage;
use lsm_core::error::Result;

/// A background merger to hand to `Engine::merge_in_background`.
pub struct Merger {
    pub(crate) driver: Driver,
}

impl Merger {
    /// A merger whose steps the caller drives (`Engine::background_step`), on `storage`: a
    /// second handle on the engine's files (a `MemStorage` clone shares them). The engine runs
    /// steps itself only while a write stalls.
    pub fn stepped(storage: Box<dyn Storage>) -> Merger {
        Merger { driver: Driver::Stepped(Box::new(MergerCore::new(storage))) }
    }

    /// A merger on threads of its own: one for flushes, one for merges (as RocksDB keeps
    /// flushes from waiting behind compactions), each on a handle `open` gives it on the
    /// engine's files (`FileStorage::open` on the same directory).
    #[cfg(feature = "files")]
    pub fn threads(open: impl Fn() -> Result<Box<dyn Storage + Send>>) -> Result<Merger> {
        Ok(Merger { driver: Driver::Thread(thread::Worker::start(open()?, open()?)?) })
    }
}

/// How the merger's steps are run.
pub(crate) enum Driver {
    /// By the caller, one at a time.
    Stepped(Box<MergerCore>),
    /// On a thread of its own.
    #[cfg(feature = "files")]
    Thread(thread::Worker),
}

impl Driver {
    /// Give the merger a task.
    pub(crate) fn submit(&mut self, task: Task) {
        match self {
            Driver::Stepped(core) => core.add(task),
            #[cfg(feature = "files")]
            Driver::Thread(w) => w.submit(task),
        }
    }

    /// Tasks done since the last call.
    pub(crate) fn take_finished(&mut self) -> Vec<Outcome> {
        match self {
            Driver::Stepped(core) => core.take_finished(),
            #[cfg(feature = "files")]
            Driver::Thread(w) => w.take_finished(),
        }
    }

    /// Wait until the merger has made a step of progress or finished a task (the stepped
    /// driver runs that step here). Only called with a task given and not yet collected.
    pub(crate) fn wait(&mut self) -> Result<()> {
        match self {
            Driver::Stepped(core) => {
                if core.busy() {
                    core.step();
                }
                Ok(())
            }
            #[cfg(feature = "files")]
            Driver::Thread(w) => w.wait(),
        }
    }

    /// Like `wait`, but a threaded merger is waited for at most `limit`: a slowed-down write
    /// yields the merger a moment, it does not sit out a step that seals a large table.
    /// (Without threads, `limit` has nothing to bound: the stepped driver's wait is one step.)
    #[cfg_attr(not(feature = "files"), allow(unused_variables))]
    pub(crate) fn wait_at_most(&mut self, limit: std::time::Duration) -> Result<()> {
        match self {
            Driver::Stepped(_) => self.wait(),
            #[cfg(feature = "files")]
            Driver::Thread(w) => w.wait_at_most(limit),
        }
    }

    /// One merger step, for a caller driving the steps; false for a threaded merger (its
    /// thread runs them) or when there is nothing to do.
    pub(crate) fn step(&mut self) -> bool {
        match self {
            Driver::Stepped(core) => core.step(),
            #[cfg(feature = "files")]
            Driver::Thread(_) => false,
        }
    }
}

/// The merger as the writer holds it: its driver and the jobs given to it, not yet installed.
pub(crate) struct Background {
    pub(crate) driver: Driver,
    /// The flush the merger holds (its buffer is the engine's immutable one).
    pub(crate) flush: Option<(u64, Job)>,
    /// The merge the merger holds.
    pub(crate) merge: Option<(u64, Job)>,
    /// Numbers tasks.
    pub(crate) next_number: u64,
}

impl Background {
    pub(crate) fn new(merger: Merger) -> Self {
        Background { driver: merger.driver, flush: None, merge: None, next_number: 1 }
    }

    /// Jobs given and not yet installed.
    pub(crate) fn in_flight(&self) -> usize {
        usize::from(self.flush.is_some()) + usize::from(self.merge.is_some())
    }
}

/// The merger's threads, a flush lane and a merge lane. Each holds its own storage handle and a
/// `MergerCore` (the same state machine the stepped driver runs, given one kind of task); tasks
/// and outcomes cross under one lock, and a condition variable wakes whichever side waits.
#[cfg(feature = "files")]
mod thread {
    use std::collections::VecDeque;
    use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
    use std::thread::JoinHandle;

    use super::{MergerCore, Outcome, Result, Storage, Task};
    use lsm_core::error::Error;

    #[derive(Default)]
    struct Shared {
        /// Tasks for the flush lane and for the merge lane.
        tasks: [VecDeque<Task>; 2],
        finished: Vec<Outcome>,
        /// Steps done so far (a waiting writer wakes on a change).
        steps: u64,
        /// The engine is gone: stop after the current step.
        stop: bool,
        /// A thread has ended (a panic would otherwise leave a writer waiting for ever).
        exited: bool,
    }

    type Channel = Arc<(Mutex<Shared>, Condvar)>;

    fn lock(m: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
        // Nothing panics while holding the lock; a poisoned one still holds consistent data.
        m.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) struct Worker {
        channel: Channel,
        threads: Vec<JoinHandle<()>>,
    }

    /// Marks the thread ended, however it ends.
    struct Exit(Channel);

    impl Drop for Exit {
        fn drop(&mut self) {
            let (m, cv) = &*self.0;
            lock(m).exited = true;
            cv.notify_all();
        }
    }

    impl Worker {
        pub(crate) fn start(flushes: Box<dyn Storage + Send>, merges: Box<dyn Storage + Send>) -> Result<Worker> {
            let mut worker = Worker { channel: Arc::default(), threads: Vec::new() };
            for (lane, storage) in [flushes, merges].into_iter().enumerate() {
                let theirs = worker.channel.clone();
                let thread = std::thread::Builder::new()
                    .name(if lane == 0 { "lsm-flush" } else { "lsm-merge" }.into())
                    .spawn(move || run(storage, theirs, lane))
                    .map_err(|e| Error::State(format!("could not start a merger thread: {e}")))?;
                worker.threads.push(thread);
            }
            Ok(worker)
        }

        pub(crate) fn submit(&mut self, task: Task) {
            let (m, cv) = &*self.channel;
            lock(m).tasks[usize::from(!task.flush)].push_back(task);
            cv.notify_all();
        }

        pub(crate) fn take_finished(&mut self) -> Vec<Outcome> {
            std::mem::take(&mut lock(&self.channel.0).finished)
        }

        pub(crate) fn wait(&mut self) -> Result<()> {
            let (m, cv) = &*self.channel;
            let mut shared = lock(m);
            let seen = shared.steps;
            while shared.steps == seen && shared.finished.is_empty() && !shared.exited {
                shared = cv.wait(shared).unwrap_or_else(PoisonError::into_inner);
            }
            if shared.exited && shared.finished.is_empty() {
                return Err(Error::State("the merger thread has ended".into()));
            }
            Ok(())
        }
    }

    impl Worker {
        pub(crate) fn wait_at_most(&mut self, limit: std::time::Duration) -> Result<()> {
            let (m, cv) = &*self.channel;
            let shared = lock(m);
            let seen = shared.steps;
            let (shared, _) = cv
                .wait_timeout_while(shared, limit, |s| s.steps == seen && s.finished.is_empty() && !s.exited)
                .unwrap_or_else(PoisonError::into_inner);
            if shared.exited && shared.finished.is_empty() {
                return Err(Error::State("the merger thread has ended".into()));
            }
            Ok(())
        }
    }

    impl Drop for Worker {
        fn drop(&mut self) {
            {
                let (m, cv) = &*self.channel;
                lock(m).stop = true;
                cv.notify_all();
            }
            for t in self.threads.drain(..) {
                let _ = t.join();
            }
        }
    }

    fn run(storage: Box<dyn Storage + Send>, channel: Channel, lane: usize) {
        let _exit = Exit(channel.clone());
        let mut core = MergerCore::new(storage);
        let (m, cv) = &*channel;
        loop {
            {
                let mut shared = lock(m);
                while shared.tasks[lane].is_empty() && !core.busy() && !shared.stop {
                    shared = cv.wait(shared).unwrap_or_else(PoisonError::into_inner);
                }
                if shared.stop {
                    // Jobs not installed are abandoned: their outputs are orphans the next open
                    // removes, their inputs are still in the tree.
                    return;
                }
                while let Some(t) = shared.tasks[lane].pop_front() {
                    core.add(t);
                }
            }
            core.step();
            let done = core.take_finished();
            let mut shared = lock(m);
            shared.finished.extend(done);
            shared.steps += 1;
            cv.notify_all();
        }
    }
}
