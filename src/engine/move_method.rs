//! Move Method: an instance method to the class of a parameter or field, a static method to any class.

use serde::{Deserialize, Serialize};

use super::{ChangeSet, Refusal};
use crate::java::project::{MethodId, Project};

/// Where the method goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "name", rename_all = "snake_case")]
pub enum Destination {
    /// The class of this parameter's declared type; the parameter disappears and its uses become `this`.
    Param(String),
    /// The class of this field's declared type.
    Field(String),
    /// Any class, by fully qualified name (static methods).
    Class(String),
}

impl std::str::FromStr for Destination {
    type Err = String;
    /// `param:NAME`, `field:NAME` or `class:FQN`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (kind, name) =
            s.split_once(':').ok_or_else(|| format!("`{s}` is not `param:NAME`, `field:NAME` or `class:FQN`"))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("`{s}` names no {kind}"));
        }
        match kind {
            "param" => Ok(Destination::Param(name.to_string())),
            "field" => Ok(Destination::Field(name.to_string())),
            "class" => Ok(Destination::Class(name.to_string())),
            other => Err(format!("`{other}:` is not a destination; use `param:NAME`, `field:NAME` or `class:FQN`")),
        }
    }
}

/// What Move Method needs beyond the method.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveSpec {
    pub to: Destination,
    /// Leave a method behind that delegates to the moved one.
    #[serde(default)]
    pub keep_delegate: bool,
}

/// Moves `method` as `spec` says, updating call sites, imports and visibility, or refuses.
pub fn move_method(_project: &Project, _method: MethodId, _spec: &MoveSpec) -> Result<ChangeSet, Refusal> {
    Err(Refusal::new("not_implemented", "Move Method is being written"))
}
