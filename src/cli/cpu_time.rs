//! The process's CPU time, for `solve --cpu-limit`: a proof's budget that
//! other jobs on the machine do not eat into, which still ends with the
//! proof's own answer (its nodes counted) rather than a kill by the system.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The clock ticks of /proc, `USER_HZ`: fixed at 100 by Linux's user ABI,
/// whatever the kernel's own tick rate.
const TICKS_PER_SECOND: u64 = 100;

/// How often the watch reads the clock: the ticks themselves are 10 ms.
const POLL: Duration = Duration::from_millis(10);

/// Why the CPU time cannot be read.
#[derive(Debug)]
pub enum CpuTimeError {
    /// /proc/self/stat cannot be read (not Linux, or no /proc mounted).
    Unreadable(std::io::Error),
    /// It was read but is not laid out as Linux's proc(5) says.
    Malformed,
}

impl fmt::Display for CpuTimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CpuTimeError::Unreadable(error) => {
                write!(f, "cannot read the process's CPU time from /proc/self/stat ({error}): --cpu-limit needs Linux")
            }
            CpuTimeError::Malformed => write!(f, "/proc/self/stat is not laid out as proc(5) says"),
        }
    }
}

impl std::error::Error for CpuTimeError {}

/// The CPU time of every thread of this process so far, user and system.
pub fn process_cpu_time() -> Result<Duration, CpuTimeError> {
    let stat = std::fs::read_to_string("/proc/self/stat").map_err(CpuTimeError::Unreadable)?;
    cpu_time_of_stat(&stat).ok_or(CpuTimeError::Malformed)
}

/// utime and stime, fields 14 and 15 of a stat line; the command name
/// (field 2, in parentheses) may hold spaces and parentheses itself, so the
/// fields are counted from its last closing parenthesis.
fn cpu_time_of_stat(stat: &str) -> Option<Duration> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let mut fields = after_name.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    let ticks = user + system;
    Some(Duration::from_millis(ticks * 1000 / TICKS_PER_SECOND))
}

/// Runs `work` while a watch sets `stop` once the process has used `limit`
/// of CPU time; returns what `work` returned and whether the watch fired.
pub fn with_cpu_limit<T>(
    limit: Duration,
    stop: &AtomicBool,
    work: impl FnOnce() -> T,
) -> Result<(T, bool), CpuTimeError> {
    process_cpu_time()?;
    let finished = AtomicBool::new(false);
    let fired = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !finished.load(Ordering::Relaxed) {
                if process_cpu_time().is_ok_and(|used| used >= limit) {
                    fired.store(true, Ordering::Relaxed);
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(POLL);
            }
        });
        let result = work();
        finished.store(true, Ordering::Relaxed);
        result
    });
    Ok((result, fired.load(Ordering::Relaxed)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_times_are_read_after_a_command_name_with_spaces_and_parentheses() {
        let stat = "4242 (a (b) c) R 1 4242 4242 0 -1 4194304 120 0 0 0 250 17 0 0 20 0 3 0 100 0 0";
        assert_eq!(cpu_time_of_stat(stat), Some(Duration::from_millis(2670)));
        assert_eq!(cpu_time_of_stat("4242 (podium) R 1 2"), None);
        assert_eq!(cpu_time_of_stat("no parenthesis"), None);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_busy_loop_is_stopped_at_its_cpu_limit_and_says_so() {
        let stop = AtomicBool::new(false);
        let start = process_cpu_time().unwrap();
        let limit = start + Duration::from_millis(200);
        let ((), fired) = with_cpu_limit(limit, &stop, || {
            while !stop.load(Ordering::Relaxed) {
                std::hint::black_box(());
            }
        })
        .unwrap();
        assert!(fired);
        assert!(process_cpu_time().unwrap() >= limit);
        let (_, fired) = with_cpu_limit(limit + Duration::from_secs(3600), &AtomicBool::new(false), || ()).unwrap();
        assert!(!fired, "work that ends first is not stopped");
    }
}
