//! CPU time of processes, from `/proc` (Linux): the server's, the load tool's own, the children it
//! waited for (pgbench), and a database server's whole process tree (PostgreSQL's postmaster and
//! the backends it forks). Elsewhere every figure is `None`.

/// One process's CPU seconds (user and system) from `/proc/<pid>/stat`, read at one moment.
struct Stat {
    own: f64,
    /// Its children's that it has waited for.
    waited_children: f64,
    parent: u32,
}

fn stat(pid: &str) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name, in parentheses, may hold spaces: fields are counted after it.
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    let field = |i: usize| fields.get(i)?.parse::<f64>().ok();
    let tick = rustix::param::clock_ticks_per_second() as f64;
    Some(Stat {
        own: (field(11)? + field(12)?) / tick,
        waited_children: (field(13)? + field(14)?) / tick,
        parent: fields.get(1)?.parse().ok()?,
    })
}

/// A process's own CPU seconds, all threads.
pub(super) fn of_process(pid: u32) -> Option<f64> {
    stat(&pid.to_string()).map(|s| s.own)
}

/// This process's own CPU seconds, all threads.
pub(super) fn of_self() -> Option<f64> {
    stat("self").map(|s| s.own)
}

/// CPU seconds of this process's children that it has waited for (a finished pgbench, psql).
pub(super) fn of_waited_children() -> Option<f64> {
    stat("self").map(|s| s.waited_children)
}

/// CPU seconds of `root` and every process it forked, alive or reaped: PostgreSQL's postmaster
/// and its backends (which it forks directly and reaps, adding their time to its own count).
pub(super) fn of_tree(root: u32) -> Option<f64> {
    let mut total = stat(&root.to_string()).map(|s| s.own + s.waited_children)?;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        // A backend that ends between the listing and the read is already in the root's count.
        if let Some(s) = stat(pid).filter(|s| s.parent == root) {
            total += s.own;
        }
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree holds its root: this process and a child it waits for.
    #[test]
    fn a_tree_counts_its_root_and_its_children() {
        let me = std::process::id();
        let own = of_process(me).expect("Linux /proc");
        let before = of_waited_children().expect("Linux /proc");
        let status = std::process::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"])
            .status()
            .expect("sh runs");
        assert!(status.success());
        let waited = of_waited_children().expect("Linux /proc") - before;
        assert!(waited > 0.0, "the child's CPU is counted once waited for");
        let tree = of_tree(me).expect("Linux /proc");
        assert!(tree >= own + waited, "{tree} < {own} + {waited}");
    }
}
