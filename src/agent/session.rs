//! What an agent run needs before it starts besides the model (`crate::llm::open`): the example
//! store the Developer searches. `mantra refactor` and `mantra batch` open it here.

use std::path::Path;

use super::{Examples, NoExamples};
use crate::config::Config;
use crate::store::{Notice, Store, StoreOptions, store_dir, user_store_dir};

/// The example store the Developer searches: the repository's (`store.dir`, else
/// `.mantra/store`), else the user-wide one; none when neither holds a record, or when `rag` is
/// false (MANTRA's "without RAG" ablation). What the store had to say (no embedding model, an
/// index rebuilt, a store that cannot be opened) comes back as notices, for the caller to show.
pub fn examples(repo: &Path, config: &Config, rag: bool) -> (Box<dyn Examples>, Vec<Notice>) {
    let mut notices = Vec::new();
    if !rag {
        // The tool is not offered: no reason to open the index or load the embedding model.
        return (Box::new(NoExamples), notices);
    }
    let mut dirs = vec![store_dir(repo, config.store.dir.as_deref())];
    dirs.extend(user_store_dir());
    for dir in dirs {
        if !dir.join("records.jsonl").is_file() {
            continue;
        }
        match Store::open_with(&dir, &StoreOptions::from_config(config)) {
            Ok(mut store) => {
                notices.extend(store.take_notices());
                if store.stats().records > 0 {
                    return (Box::new(store), notices);
                }
            }
            Err(e) => notices.push(Notice {
                message: format!("the example store in {} cannot be opened: {e}", dir.display()),
                hint: Some("the agents run without examples; `mantra store info` shows what is wrong".into()),
            }),
        }
    }
    (Box::new(NoExamples), notices)
}
