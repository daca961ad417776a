//! What SQLite's write turn has done: how long writers held it, committing, syncing, and for a
//! sample of the writes how much of their holding was on a core (issue 50).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// What the write turn has done since the start (`/metrics`, `keltis load`). Writes take the
/// turn one at a time, so the share of wall time it is held says how far more cores can take
/// SQLite: held all the time, the rate is writes per second of holding, whatever the cores.
#[derive(Default)]
pub(super) struct TurnClock {
    pub(super) held_nanos: AtomicU64,
    pub(super) commit_nanos: AtomicU64,
    pub(super) writes: AtomicU64,
    pub(super) batches: AtomicU64,
    /// Syncs of the log made apart, outside the turn, and how long they took.
    pub(super) syncs: AtomicU64,
    pub(super) sync_nanos: AtomicU64,
    /// One write in [`CPU_SAMPLED_EVERY`]: the time it held the turn, and of that the time its
    /// thread was on a core. Held time counts a holder waiting for a core too (on a machine with
    /// fewer cores than busy threads) and for the disk (a commit at `full`); the on-core share
    /// says what the turn would cost with cores to spare.
    pub(super) sampled_held_nanos: AtomicU64,
    pub(super) sampled_cpu_nanos: AtomicU64,
}

/// Reading a thread's CPU clock is a system call (about 1.3 µs in a virtual machine, twice per
/// write): one write in this many is sampled, which costs the others nothing.
const CPU_SAMPLED_EVERY: u64 = 16;

/// The calling thread's CPU time.
fn thread_cpu() -> rustix::time::Timespec {
    rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime)
}

fn nanos_between(a: rustix::time::Timespec, b: rustix::time::Timespec) -> u64 {
    let nanos = (b.tv_sec - a.tv_sec) as i128 * 1_000_000_000 + (b.tv_nsec - a.tv_nsec) as i128;
    nanos.max(0) as u64
}

/// A snapshot of the turn's clock (`TurnClock`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct WriteTurnStats {
    /// Time writers held the turn (their statements, savepoints and commits), in seconds.
    pub held_seconds: f64,
    /// Of which, committing (the sync to disk).
    pub commit_seconds: f64,
    /// Writes that took the turn.
    pub writes: u64,
    /// Transactions committed (each holds one or more writes).
    pub batches: u64,
    /// Syncs of the log outside the turn (each makes every batch committed before it durable),
    /// and the time they took, in seconds.
    pub syncs: u64,
    pub sync_seconds: f64,
    /// The sampled writes' time holding the turn, and of it on a core, in seconds.
    pub sampled_held_seconds: f64,
    pub sampled_cpu_seconds: f64,
}

/// Adds the time from its making to its drop to the turn's held time: made just after the turn is
/// taken, it drops just before the turn's guard on every way out of
/// [`Committer::write`](super::Committer::write).
pub(super) struct Holding<'a> {
    clock: &'a TurnClock,
    since: Instant,
    /// The thread's CPU clock at the start, for a sampled write.
    cpu_since: Option<rustix::time::Timespec>,
}

impl<'a> Holding<'a> {
    /// A write has taken the turn: count it, and start holding (one write in
    /// [`CPU_SAMPLED_EVERY`] also with its thread's CPU time).
    pub(super) fn write(clock: &'a TurnClock) -> Holding<'a> {
        let write = clock.writes.fetch_add(1, Ordering::Relaxed);
        Holding::start(clock, write.is_multiple_of(CPU_SAMPLED_EVERY))
    }

    /// Start holding; `sampled`: also count the thread's CPU time.
    pub(super) fn start(clock: &'a TurnClock, sampled: bool) -> Holding<'a> {
        Holding {
            clock,
            since: Instant::now(),
            cpu_since: sampled.then(thread_cpu),
        }
    }
}

impl Drop for Holding<'_> {
    fn drop(&mut self) {
        // The CPU clock is read inside the wall clock's span, so it cannot count more.
        let cpu = self
            .cpu_since
            .map(|since| nanos_between(since, thread_cpu()));
        let nanos = self.since.elapsed().as_nanos() as u64;
        self.clock.held_nanos.fetch_add(nanos, Ordering::Relaxed);
        if let Some(cpu) = cpu {
            let clock = self.clock;
            clock.sampled_held_nanos.fetch_add(nanos, Ordering::Relaxed);
            clock.sampled_cpu_nanos.fetch_add(cpu, Ordering::Relaxed);
        }
    }
}

impl TurnClock {
    /// What the turn has done since the start.
    pub(super) fn stats(&self) -> WriteTurnStats {
        let seconds = |a: &AtomicU64| a.load(Ordering::Relaxed) as f64 / 1e9;
        WriteTurnStats {
            held_seconds: seconds(&self.held_nanos),
            commit_seconds: seconds(&self.commit_nanos),
            writes: self.writes.load(Ordering::Relaxed),
            batches: self.batches.load(Ordering::Relaxed),
            syncs: self.syncs.load(Ordering::Relaxed),
            sync_seconds: seconds(&self.sync_nanos),
            sampled_held_seconds: seconds(&self.sampled_held_nanos),
            sampled_cpu_seconds: seconds(&self.sampled_cpu_nanos),
        }
    }
}
