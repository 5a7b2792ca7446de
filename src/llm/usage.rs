//! What the model cost: requests and tokens per agent and for the whole run, priced with
//! `llm.prices`.
//!
//! A [`UsageMeter`] is a shared tally (clone it freely: clones count into the same totals);
//! [`Metered`] wraps any [`ChatModel`] and adds every answer's usage under the request's `agent`.
//! The final report serialises a [`UsageSummary`].

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;

use super::{ChatModel, ChatRequest, ChatResponse, LlmError, Usage};
use crate::config::Prices;

/// One agent's (or the run's) consumption.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct AgentUsage {
    /// Requests that got an answer.
    pub requests: u64,
    /// Requests that ended in an error (after the client's retries).
    pub failed_requests: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// In the currency of `llm.prices`; `None` unless both prices are configured.
    pub cost: Option<f64>,
}

/// The run's usage: per agent (sorted by name) and in total.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct UsageSummary {
    pub agents: BTreeMap<String, AgentUsage>,
    pub total: AgentUsage,
}

impl std::fmt::Display for UsageSummary {
    /// `1200 tokens sent, 300 received in 4 requests (cost 0.0012)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let t = &self.total;
        write!(f, "{} tokens sent, {} received in {} requests", t.prompt_tokens, t.completion_tokens, t.requests)?;
        if t.failed_requests > 0 {
            write!(f, " ({} failed)", t.failed_requests)?;
        }
        if let Some(cost) = t.cost {
            write!(f, ", cost {cost:.4}")?;
        }
        Ok(())
    }
}

#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    requests: u64,
    failed: u64,
    usage: Usage,
}

/// A thread-safe usage tally shared by every wrapper of one run.
#[derive(Debug, Clone, Default)]
pub struct UsageMeter {
    tallies: Arc<Mutex<BTreeMap<String, Tally>>>,
    prices: Prices,
}

impl UsageMeter {
    pub fn new(prices: Prices) -> UsageMeter {
        UsageMeter { tallies: Arc::default(), prices }
    }

    /// Counts one answered request of `agent`.
    pub fn add(&self, agent: &str, usage: Usage) {
        self.with(agent, |t| {
            t.requests += 1;
            t.usage += usage;
        });
    }

    /// Counts one request of `agent` that ended in an error.
    pub fn add_failure(&self, agent: &str) {
        self.with(agent, |t| t.failed += 1);
    }

    fn with(&self, agent: &str, f: impl FnOnce(&mut Tally)) {
        // A panic elsewhere while holding the lock leaves plain counters behind: still usable.
        let mut tallies = self.tallies.lock().unwrap_or_else(PoisonError::into_inner);
        f(tallies.entry(agent.to_string()).or_default());
    }

    /// The totals so far.
    pub fn summary(&self) -> UsageSummary {
        let tallies = self.tallies.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let mut total = Tally::default();
        let agents = tallies
            .into_iter()
            .map(|(agent, t)| {
                total.requests += t.requests;
                total.failed += t.failed;
                total.usage += t.usage;
                (agent, self.priced(t))
            })
            .collect();
        UsageSummary { agents, total: self.priced(total) }
    }

    fn priced(&self, t: Tally) -> AgentUsage {
        AgentUsage {
            requests: t.requests,
            failed_requests: t.failed,
            prompt_tokens: t.usage.prompt_tokens,
            completion_tokens: t.usage.completion_tokens,
            cost: self.prices.cost(t.usage.prompt_tokens, t.usage.completion_tokens),
        }
    }
}

/// A model whose every request is counted on a [`UsageMeter`].
pub struct Metered<M> {
    inner: M,
    meter: UsageMeter,
}

impl<M: ChatModel> Metered<M> {
    pub fn new(inner: M, meter: UsageMeter) -> Metered<M> {
        Metered { inner, meter }
    }
}

impl<M: ChatModel> ChatModel for Metered<M> {
    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let result = self.inner.chat(request);
        match &result {
            Ok(r) => self.meter.add(&request.agent, r.usage),
            Err(_) => self.meter.add_failure(&request.agent),
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_agent_and_total_with_cost() {
        let meter = UsageMeter::new(Prices { prompt: Some(2.0), completion: Some(10.0) });
        let clone = meter.clone();
        meter.add("developer", Usage { prompt_tokens: 1000, completion_tokens: 100 });
        clone.add("developer", Usage { prompt_tokens: 500, completion_tokens: 50 });
        meter.add("repair", Usage { prompt_tokens: 250_000, completion_tokens: 0 });
        meter.add_failure("repair");
        let s = meter.summary();
        assert_eq!(s.agents["developer"].requests, 2);
        assert_eq!(s.agents["developer"].prompt_tokens, 1500);
        assert_eq!(s.agents["repair"].failed_requests, 1);
        assert_eq!(s.total.requests, 3);
        assert_eq!(s.total.prompt_tokens, 251_500);
        assert_eq!(s.total.completion_tokens, 150);
        let cost = s.total.cost.unwrap();
        assert!((cost - (251_500.0 * 2.0 + 150.0 * 10.0) / 1e6).abs() < 1e-12, "{cost}");
        assert_eq!(s.to_string(), "251500 tokens sent, 150 received in 3 requests (1 failed), cost 0.5045");
        assert_eq!(UsageMeter::default().summary().total.cost, None);
    }
}
