//! The process's own limits, raised at start where the server may. Every open event stream,
//! connection and database file holds a file descriptor, and the soft open-file limit a shell or
//! service manager gives by default (often 1,024) refuses streams ("Too many open files") long
//! before the machine runs short of anything; the hard limit is what an operator allows.

use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};

/// Below this many open files a busy server refuses streams: the start warns.
pub const LOW_OPEN_FILES: u64 = 16_384;
/// Descriptors kept for what is not a stream: the listeners, database connections and files,
/// the SMTP and push clients, logs.
const HELD_BACK: u64 = 256;
/// Where the hard limit is "unlimited" the soft one cannot be: Linux's default ceiling
/// (`fs.nr_open`), then macOS's (`OPEN_MAX`).
const CEILINGS: [u64; 2] = [1 << 20, 10_240];

/// The open-file limit before and after [`raise_open_files`] (`None`: unlimited).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenFiles {
    pub before: Option<u64>,
    pub now: Option<u64>,
    pub hard: Option<u64>,
}

impl OpenFiles {
    /// About how many event streams the limit leaves room for.
    pub fn streams(&self) -> Option<u64> {
        self.now.map(|n| n.saturating_sub(HELD_BACK))
    }

    pub fn is_low(&self) -> bool {
        self.now.is_some_and(|n| n < LOW_OPEN_FILES)
    }
}

/// The cores this process may run on (`taskset` and a container's CPU quota count; 1 where the
/// system does not say).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Raise the soft open-file limit to the hard one (or as near as the system allows).
pub fn raise_open_files() -> OpenFiles {
    let Rlimit { current, maximum } = getrlimit(Resource::Nofile);
    let mut now = current;
    let wanted = match maximum {
        Some(hard) => vec![hard],
        None => CEILINGS.to_vec(),
    };
    for soft in wanted {
        // Never lower it (an unlimited soft limit is `None`).
        if current.is_none_or(|c| c >= soft) {
            break;
        }
        let raised = Rlimit {
            current: Some(soft),
            maximum,
        };
        if setrlimit(Resource::Nofile, raised).is_ok() {
            now = Some(soft);
            break;
        }
    }
    OpenFiles {
        before: current,
        now,
        hard: maximum,
    }
}

/// Raise the limit and say in the log what it allows; a warning when it is low.
pub fn raise_and_log_open_files() -> OpenFiles {
    let files = raise_open_files();
    tracing::info!(
        open_files = ?files.now,
        was = ?files.before,
        hard = ?files.hard,
        streams = ?files.streams(),
        "open-file limit: about this many event streams at once"
    );
    if files.is_low() {
        tracing::warn!(
            open_files = ?files.now,
            wanted = LOW_OPEN_FILES,
            "the open-file limit is low: event streams beyond it are refused; raise the hard \
             limit (systemd LimitNOFILE=, docker --ulimit nofile=; docs/operating.md)"
        );
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_soft_limit_is_raised_to_the_hard_one() {
        let files = raise_open_files();
        let after = getrlimit(Resource::Nofile);
        assert_eq!(after.current, files.now);
        match files.hard {
            Some(hard) => assert_eq!(files.now, Some(hard)),
            None => assert!(files.now.is_some_and(|n| n >= 10_240)),
        }
        if let (Some(streams), Some(now)) = (files.streams(), files.now) {
            assert!(streams < now);
        }
    }
}
