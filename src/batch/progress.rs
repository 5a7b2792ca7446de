//! The progress line on stderr: counts, elapsed time and an estimate of the time left.
//!
//! On a terminal it is one line redrawn in place (a bar); elsewhere (CI logs, `--json`) the command
//! prints one line per finished task instead, and [`Progress::draw`] prints nothing.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use super::result::TaskResult;

pub struct Progress {
    pub total: usize,
    /// Finished in an earlier run (`--resume`).
    pub skipped: usize,
    pub done: usize,
    pub succeeded: usize,
    start: Instant,
    live: bool,
}

impl Progress {
    pub fn new(total: usize, skipped: usize) -> Progress {
        let live = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        Progress { total, skipped, done: 0, succeeded: 0, start: Instant::now(), live }
    }

    /// Whether the line is redrawn in place (a terminal), so per-task lines are not needed.
    pub fn live(&self) -> bool {
        self.live
    }

    pub fn finished(&mut self, r: &TaskResult) {
        self.done += 1;
        if r.success {
            self.succeeded += 1;
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time left at the rate so far; `None` before the first task ends.
    pub fn eta(&self) -> Option<Duration> {
        (self.done > 0).then(|| self.elapsed().mul_f64((self.total - self.done) as f64 / self.done as f64))
    }

    /// `3/8 done (2 succeeded, 1 failed), 0:42 elapsed, ETA 1:10`.
    pub fn line(&self) -> String {
        let failed = self.done - self.succeeded;
        let skipped = if self.skipped > 0 { format!(", {} from an earlier run", self.skipped) } else { String::new() };
        let eta = self.eta().map_or("ETA -".to_string(), |d| format!("ETA {}", clock(d)));
        format!(
            "{}/{} done ({} succeeded, {failed} failed{skipped}), {} elapsed, {eta}",
            self.done,
            self.total,
            self.succeeded,
            clock(self.elapsed())
        )
    }

    pub fn draw(&self, err: &mut dyn Write) {
        if !self.live {
            return;
        }
        const WIDTH: usize = 24;
        let filled = (WIDTH * self.done).checked_div(self.total).unwrap_or(WIDTH);
        let bar = format!("{}{}", "#".repeat(filled), "-".repeat(WIDTH - filled));
        let _ = write!(err, "\r\x1b[2K[{bar}] {}", self.line());
        let _ = err.flush();
    }

    pub fn clear(&self, err: &mut dyn Write) {
        if self.live {
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}

/// `m:ss`, or `h:mm:ss` from an hour on.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_formats() {
        assert_eq!(clock(Duration::from_secs(70)), "1:10");
        assert_eq!(clock(Duration::from_secs(3725)), "1:02:05");
    }

    #[test]
    fn no_eta_before_the_first_task() {
        let p = Progress::new(4, 1);
        assert!(p.eta().is_none());
        assert!(p.line().starts_with("0/4 done (0 succeeded, 0 failed, 1 from an earlier run)"), "{}", p.line());
    }
}
