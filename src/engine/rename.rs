//! Rename Method: the declaration, call sites, method references, and the overriding and
//! overridden methods in the project.

use serde::{Deserialize, Serialize};

use super::{ChangeSet, Refusal};
use crate::java::project::{MethodId, Project};

/// What Rename Method needs beyond the method: the new name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenameSpec {
    pub new_name: String,
}

/// Renames `method` and everything that must change with it, or refuses.
pub fn rename_method(_project: &Project, _method: MethodId, _spec: &RenameSpec) -> Result<ChangeSet, Refusal> {
    Err(Refusal::new("not_implemented", "Rename Method is being written"))
}
