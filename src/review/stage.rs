//! What the Reviewer says: one [`StageReport`] per stage as it finishes, then a [`Verdict`].
//!
//! Both are part of the `--json` contract (a `stage` event per stage, a `verdict` result), so their
//! serialised shape is documented in the README and changes only on purpose.

use std::time::Duration;

use serde::Serialize;

use crate::build::FailureKind;

/// The stages of a review, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// The original project's compile and full test run (cached per project state).
    Baseline,
    /// Did the intended refactoring happen (or, without an intent, which refactorings did)?
    Detection,
    /// Checkstyle violations the change added.
    Style,
    Compile,
    /// The tests that reach the changed classes.
    TestsAffected,
    /// The whole suite.
    TestsAll,
}

impl Stage {
    /// Every stage after the baseline, in order.
    pub const AFTER_BASELINE: [Stage; 5] =
        [Stage::Detection, Stage::Style, Stage::Compile, Stage::TestsAffected, Stage::TestsAll];

    /// The name the human printer shows: `tests affected`.
    pub fn label(self) -> &'static str {
        match self {
            Stage::Baseline => "baseline",
            Stage::Detection => "detection",
            Stage::Style => "style",
            Stage::Compile => "compile",
            Stage::TestsAffected => "tests affected",
            Stage::TestsAll => "tests all",
        }
    }
}

/// How a stage ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StageStatus {
    Ok,
    /// The stage rejects the change (or, for the baseline, the original is broken).
    Failed,
    /// Something worth knowing that does not reject the change (new violations of bundled rules,
    /// an ambiguous detection, flaky tests).
    Warning,
    /// Not run; `summary` says why (a tool is missing, an earlier stage failed, nothing to run).
    Skipped,
}

/// One finished stage.
#[derive(Debug, Clone, Serialize)]
pub struct StageReport {
    pub name: Stage,
    pub status: StageStatus,
    pub duration_ms: u64,
    /// One line: `ok`, `33 passed`, `1 new violation`, `skipped: detector not available`.
    pub summary: String,
    /// Stage-specific structured data (diagnostics, failing tests, violations, detections).
    pub details: serde_json::Value,
}

impl StageReport {
    pub fn new(name: Stage, status: StageStatus, elapsed: Duration, summary: impl Into<String>) -> StageReport {
        StageReport {
            name,
            status,
            duration_ms: elapsed.as_millis() as u64,
            summary: summary.into(),
            details: serde_json::Value::Null,
        }
    }

    pub fn with_details(mut self, details: impl Serialize) -> StageReport {
        self.details = serde_json::to_value(details).unwrap_or(serde_json::Value::Null);
        self
    }

    pub fn skipped(name: Stage, why: impl Into<String>) -> StageReport {
        StageReport::new(name, StageStatus::Skipped, Duration::ZERO, format!("skipped: {}", why.into()))
    }

    /// `[compile] ok 7.2s`, without the brackets' styling: the human printer's line.
    pub fn line(&self) -> String {
        if self.status == StageStatus::Skipped {
            self.summary.clone()
        } else {
            format!("{} {:.1}s", self.summary, self.duration_ms as f64 / 1000.0)
        }
    }
}

/// The Reviewer's decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// Every stage passed (warnings allowed).
    Accepted,
    /// The change broke something; `stage` is the first stage that failed.
    Rejected {
        stage: Stage,
        /// Set for compile and test stages.
        #[serde(skip_serializing_if = "Option::is_none")]
        failure: Option<FailureKind>,
        /// One line each: a diagnostic `file:line:col: message`, a failing test and its message, ...
        reasons: Vec<String>,
    },
    /// The original project does not compile (or its tests do not finish), so nothing can be
    /// judged; the change is not blamed.
    BrokenBaseline { reasons: Vec<String> },
}

impl Verdict {
    pub fn accepted(&self) -> bool {
        matches!(self, Verdict::Accepted)
    }

    /// `accepted`, `rejected`, `broken-baseline`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::Rejected { .. } => "rejected",
            Verdict::BrokenBaseline { .. } => "broken-baseline",
        }
    }

    pub fn reasons(&self) -> &[String] {
        match self {
            Verdict::Accepted => &[],
            Verdict::Rejected { reasons, .. } | Verdict::BrokenBaseline { reasons } => reasons,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_serialise_as_the_readme_says() {
        let v = Verdict::Rejected {
            stage: Stage::TestsAffected,
            failure: Some(FailureKind::Timeout),
            reasons: vec!["took too long".into()],
        };
        assert_eq!(
            serde_json::to_value(&v).unwrap(),
            serde_json::json!({"verdict": "rejected", "stage": "tests-affected", "failure": "timeout", "reasons": ["took too long"]})
        );
        assert_eq!(serde_json::to_value(Verdict::Accepted).unwrap(), serde_json::json!({"verdict": "accepted"}));
        let broken = Verdict::BrokenBaseline { reasons: vec![] };
        assert_eq!(serde_json::to_value(&broken).unwrap()["verdict"], "broken-baseline");
        assert_eq!(broken.name(), "broken-baseline");
        assert!(!broken.accepted());
    }

    #[test]
    fn stage_lines_carry_the_duration_unless_skipped() {
        let ok = StageReport::new(Stage::Compile, StageStatus::Ok, Duration::from_millis(7240), "ok");
        assert_eq!(ok.line(), "ok 7.2s");
        assert_eq!(
            StageReport::skipped(Stage::Detection, "detector not available").line(),
            "skipped: detector not available"
        );
        let json = serde_json::to_value(ok.with_details(serde_json::json!({"x": 1}))).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"name": "compile", "status": "ok", "duration_ms": 7240, "summary": "ok", "details": {"x": 1}})
        );
    }
}
