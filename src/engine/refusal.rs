//! Why the engine refuses a refactoring: a [`Reason`] with a stable code, and a sentence.
//!
//! The codes are part of the `--json` contract and the batch's failure classes: a refusal is
//! serialised as its code (`"multiple_outputs"`), so renaming a variant changes nothing a user
//! sees, and a typo in a code cannot compile.

use serde::{Serialize, Serializer};

/// Why the engine will not perform a refactoring: a stable machine-readable code and a sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    /// A stable snake_case code, e.g. `multiple_outputs`, `break_leaves_fragment`.
    pub reason: Reason,
    /// What is wrong and, where possible, what would work instead.
    pub message: String,
}

impl Refusal {
    pub fn new(reason: Reason, message: impl Into<String>) -> Refusal {
        Refusal { reason, message: message.into() }
    }
}

macro_rules! reasons {
    ($($variant:ident = $code:literal,)*) => {
        /// The reasons the engine gives, each with its stable snake_case code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Reason {
            $($variant,)*
        }

        impl Reason {
            /// Every reason, in the order of their codes.
            pub const ALL: &[Reason] = &[$(Reason::$variant,)*];

            /// The stable code: `name_clash`.
            pub fn code(self) -> &'static str {
                match self {
                    $(Reason::$variant => $code,)*
                }
            }
        }
    };
}

reasons! {
    AbstractMethod = "abstract_method",
    AmbiguousCall = "ambiguous_call",
    AmbiguousMethod = "ambiguous_method",
    AnonymousClass = "anonymous_class",
    AssignsFinalField = "assigns_final_field",
    BreakLeavesFragment = "break_leaves_fragment",
    ComplexReceiver = "complex_receiver",
    CompoundInconsistent = "compound_inconsistent",
    Constructor = "constructor",
    ConstructorCall = "constructor_call",
    CopyDiffers = "copy_differs",
    DestinationInterface = "destination_interface",
    DestinationNotInProject = "destination_not_in_project",
    DestinationReassigned = "destination_reassigned",
    DiscardedResult = "discarded_result",
    EarlyReturn = "early_return",
    EmptySelection = "empty_selection",
    FieldNotAccessible = "field_not_accessible",
    FieldShadowed = "field_shadowed",
    FileNotFound = "file_not_found",
    FixtureMethod = "fixture_method",
    GenericDestination = "generic_destination",
    GenericMethod = "generic_method",
    GenericSource = "generic_source",
    InHierarchy = "in_hierarchy",
    InaccessibleMember = "inaccessible_member",
    InaccessibleType = "inaccessible_type",
    InnerClassInBody = "inner_class_in_body",
    InstanceMethod = "instance_method",
    InvalidLines = "invalid_lines",
    InvalidName = "invalid_name",
    InvalidVisibility = "invalid_visibility",
    LinesOutsideMethod = "lines_outside_method",
    LocalClass = "local_class",
    LocalType = "local_type",
    MethodReference = "method_reference",
    MultipleOutputs = "multiple_outputs",
    NameCapture = "name_capture",
    NamedByAnnotation = "named_by_annotation",
    NameClash = "name_clash",
    NeedsTemporary = "needs_temporary",
    NestedCall = "nested_call",
    NoBody = "no_body",
    NoCallAtLine = "no_call_at_line",
    NoCallSites = "no_call_sites",
    NoCandidate = "no_candidate",
    NoDestinationInstance = "no_destination_instance",
    NoSuchField = "no_such_field",
    NoSuchMethod = "no_such_method",
    NoSuchParameter = "no_such_parameter",
    NotATestCase = "not_a_test_case",
    NotStatementPosition = "not_statement_position",
    NullArgument = "null_argument",
    OuterInstanceUsed = "outer_instance_used",
    OverlappingCalls = "overlapping_calls",
    OverlappingEdits = "overlapping_edits",
    Overridden = "overridden",
    Overrides = "overrides",
    OverridesExternal = "overrides_external",
    ParamChangesInside = "param_changes_inside",
    ParamNotFound = "param_not_found",
    ParamTypeUnknown = "param_type_unknown",
    PartialStatement = "partial_statement",
    PrivateMemberUsed = "private_member_used",
    RecordAccessor = "record_accessor",
    Recursive = "recursive",
    RecursiveOtherReceiver = "recursive_other_receiver",
    ReturnInLambda = "return_in_lambda",
    ReturnNotOnAllPaths = "return_not_on_all_paths",
    SameClass = "same_class",
    SameName = "same_name",
    SourceStateUsed = "source_state_used",
    StaticField = "static_field",
    StaticMethodViaField = "static_method_via_field",
    SuperCall = "super_call",
    Synchronized = "synchronized",
    SynchronizedMethod = "synchronized_method",
    SyntaxError = "syntax_error",
    TestMethodChannel = "test_method_channel",
    TestToMain = "test_to_main",
    TypeNameClash = "type_name_clash",
    UnreadableFile = "unreadable_file",
    UnresolvedCall = "unresolved_call",
    UnresolvedCalls = "unresolved_calls",
    UnresolvedMember = "unresolved_member",
    UnresolvedName = "unresolved_name",
    UntypedVar = "untyped_var",
    UsesSuper = "uses_super",
    UsesTypeParameter = "uses_type_parameter",
    Varargs = "varargs",
    YieldLeavesFragment = "yield_leaves_fragment",
}

/// `` `first` `` and how many more tests name a method, for a refusal's message:
/// `` `parses` and 2 more test(s)``.
pub(crate) fn tests_naming(first: &str, count: usize) -> String {
    let more = if count > 1 { format!(" and {} more test(s)", count - 1) } else { String::new() };
    format!("`{first}`{more}")
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Reason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// Tests and tools compare a reason with its code: `assert_eq!(refusal.reason, "name_clash")`.
impl PartialEq<&str> for Reason {
    fn eq(&self, code: &&str) -> bool {
        self.code() == *code
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_snake_case_and_serialise_as_themselves() {
        let mut seen = std::collections::BTreeSet::new();
        for r in Reason::ALL {
            assert!(seen.insert(r.code()), "{} twice", r.code());
            assert!(r.code().bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{}", r.code());
            assert_eq!(serde_json::to_value(r).unwrap(), serde_json::json!(r.code()));
        }
        let refusal = Refusal::new(Reason::NameClash, "taken");
        assert_eq!(
            serde_json::to_value(&refusal).unwrap(),
            serde_json::json!({"reason": "name_clash", "message": "taken"})
        );
    }
}
