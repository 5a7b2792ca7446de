//! Everything the agents get to see about one method: its code, its class (package, header,
//! fields, member signatures), its callers and callees with their code (unresolved calls listed
//! as written), the type hierarchy, and the project summary. `mantra analyze` prints it; the
//! Developer's context and its `get_method_context` tool are made of it.

use serde::Serialize;

use super::symbols::FieldKind;
use super::{MethodId, Project, Resolution, Summary, TypeId};

/// A method as the agents see it: where it is, its declaration and (optionally) its code.
#[derive(Debug, Serialize)]
pub struct MethodView {
    /// `a.b.Outer.Inner`.
    pub class: String,
    pub signature: String,
    pub declaration: String,
    pub file: String,
    pub start_line: usize,
    pub end_line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct ClassView {
    pub package: Option<String>,
    pub name: String,
    pub kind: &'static str,
    pub signature: String,
    pub fields: Vec<String>,
    pub methods: Vec<MethodView>,
}

/// A call made by the target method.
#[derive(Debug, Serialize)]
pub struct CallView {
    pub text: String,
    pub line: usize,
}

#[derive(Debug, Serialize)]
pub struct CalleeView {
    pub method: MethodView,
    pub calls: Vec<CallView>,
}

#[derive(Debug, Serialize)]
pub struct AmbiguousView {
    pub call: CallView,
    pub candidates: Vec<MethodView>,
}

#[derive(Debug, Serialize)]
pub struct UnresolvedView {
    pub call: CallView,
    pub reason: String,
}

#[derive(Debug, Serialize)]
pub struct CallerView {
    pub method: MethodView,
    pub call: CallView,
    /// `false` when the call may also target another overload.
    pub certain: bool,
}

#[derive(Debug, Serialize)]
pub struct TypeView {
    pub name: String,
    /// `None` for types outside the project.
    pub file: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct HierarchyView {
    pub supertypes: Vec<TypeView>,
    pub subtypes: Vec<TypeView>,
    pub overrides: Vec<MethodView>,
    pub overridden_by: Vec<MethodView>,
}

/// The `analysis` result.
#[derive(Debug, Serialize)]
pub struct Analysis {
    pub target: MethodView,
    pub class: ClassView,
    pub callees: Vec<CalleeView>,
    pub ambiguous_calls: Vec<AmbiguousView>,
    pub unresolved_calls: Vec<UnresolvedView>,
    pub callers: Vec<CallerView>,
    pub hierarchy: HierarchyView,
    pub project: Summary,
}

/// Builds the analysis of one method.
pub fn analyze(project: &Project, method: MethodId) -> Analysis {
    let owner = project.owner(method);
    let decl = project.type_decl(owner);
    let syms = project.symbols_of(owner);
    let class = ClassView {
        package: syms.package.clone(),
        name: project.qualified_name(owner),
        kind: decl.kind.keyword(),
        signature: decl.header.trim_end().to_string(),
        fields: decl.fields.iter().map(field_text).collect(),
        methods: project.methods_of(owner).into_iter().map(|m| view(project, m, false)).collect(),
    };

    let mut callees: Vec<CalleeView> = Vec::new();
    let mut ambiguous_calls = Vec::new();
    let mut unresolved_calls = Vec::new();
    let calls = &project.method(method).calls;
    for callee in project.callees(method) {
        let call = CallView { text: project.call_text(method, callee.call), line: calls[callee.call].span.start_line };
        match callee.resolution {
            Resolution::Resolved { method: m } => {
                let key = project.method(m).span;
                match callees
                    .iter_mut()
                    .find(|c| c.method.start_line == key.start_line && c.method.file == file_of(project, m))
                {
                    Some(existing) => existing.calls.push(call),
                    None => callees.push(CalleeView { method: view(project, m, true), calls: vec![call] }),
                }
            }
            Resolution::Ambiguous { candidates } => ambiguous_calls.push(AmbiguousView {
                call,
                candidates: candidates.into_iter().map(|m| view(project, m, true)).collect(),
            }),
            Resolution::Unresolved { reason, .. } => unresolved_calls.push(UnresolvedView { call, reason }),
        }
    }

    let callers = project
        .callers(method)
        .into_iter()
        .map(|c| CallerView {
            method: view(project, c.method, true),
            call: CallView {
                text: project.call_text(c.method, c.call),
                line: project.method(c.method).calls[c.call].span.start_line,
            },
            certain: c.certain,
        })
        .collect();

    let mut supertypes: Vec<TypeView> = project.supertypes(owner).into_iter().map(|t| type_view(project, t)).collect();
    supertypes.extend(project.external_supertypes(owner).into_iter().map(|name| TypeView { name, file: None }));
    let hierarchy = HierarchyView {
        supertypes,
        subtypes: project.subtypes(owner).into_iter().map(|t| type_view(project, t)).collect(),
        overrides: project.overrides(method).into_iter().map(|m| view(project, m, false)).collect(),
        overridden_by: project.overridden_by(method).into_iter().map(|m| view(project, m, false)).collect(),
    };

    // Last, so the syntax errors of every file the analysis parsed are listed; the rest of the
    // project is counted without a parse.
    let summary = project.scanned_summary();
    Analysis {
        target: view(project, method, true),
        class,
        callees,
        ambiguous_calls,
        unresolved_calls,
        callers,
        hierarchy,
        project: summary,
    }
}

fn file_of(project: &Project, m: MethodId) -> String {
    project.path(m.file()).display().to_string()
}

fn view(project: &Project, m: MethodId, with_code: bool) -> MethodView {
    let d = project.method(m);
    let source = project.method_source(m);
    let start = d.javadoc_span.map_or(d.span, |j| j);
    let code = with_code.then(|| {
        // from the start of the first line, so the indentation of the whole block stays consistent
        let from = source
            .line_start(start.start_line)
            .filter(|&l| source.text[l..start.start_byte].trim().is_empty())
            .unwrap_or(start.start_byte);
        source.text[from..d.span.end_byte].to_string()
    });
    MethodView {
        class: project.qualified_name(project.owner(m)),
        signature: d.signature(),
        declaration: d.declaration(),
        file: file_of(project, m),
        start_line: d.span.start_line,
        end_line: d.span.end_line,
        code,
    }
}

fn type_view(project: &Project, t: TypeId) -> TypeView {
    TypeView { name: project.qualified_name(t), file: Some(project.path(t.file()).display().to_string()) }
}

fn field_text(f: &super::symbols::FieldDecl) -> String {
    match f.kind {
        FieldKind::EnumConstant => format!("{} (enum constant)", f.name),
        FieldKind::RecordComponent => format!("{} {} (record component)", f.ty.text, f.name),
        FieldKind::Field => {
            let mut s = f.modifiers.join(" ");
            if !s.is_empty() {
                s.push(' ');
            }
            let dims = if f.ty.text.matches('[').count() < f.ty.dims as usize { "[]" } else { "" };
            format!("{s}{}{dims} {}", f.ty.text, f.name)
        }
    }
}

/// The analysis as sectioned text.
pub fn render(a: &Analysis) -> String {
    let mut out = String::new();
    let t = &a.target;
    out.push_str(&format!("== Method {}#{}\n", t.class, t.signature));
    out.push_str(&format!("   {}:{}-{}\n\n", t.file, t.start_line, t.end_line));
    out.push_str(&indent(t.code.as_deref().unwrap_or(""), 0));
    out.push('\n');

    out.push_str(&format!("\n== Class {} ({})\n", a.class.name, a.class.kind));
    if let Some(p) = &a.class.package {
        out.push_str(&format!("   package {p}\n"));
    }
    out.push_str(&format!("   {}\n", a.class.signature));
    if !a.class.fields.is_empty() {
        out.push_str("   Fields:\n");
        for f in &a.class.fields {
            out.push_str(&format!("     {f}\n"));
        }
    }
    out.push_str("   Methods:\n");
    for m in &a.class.methods {
        out.push_str(&format!("     {:>5}  {}\n", m.start_line, m.declaration));
    }

    let n = a.callees.len() + a.ambiguous_calls.len() + a.unresolved_calls.len();
    out.push_str(&format!("\n== Callees ({n})\n"));
    for c in &a.callees {
        let lines: Vec<String> = c.calls.iter().map(|x| x.line.to_string()).collect();
        out.push_str(&format!(
            "-> {}#{}   {}:{}-{}   (called on line {})\n",
            c.method.class,
            c.method.signature,
            c.method.file,
            c.method.start_line,
            c.method.end_line,
            lines.join(", ")
        ));
        out.push_str(&indent(c.method.code.as_deref().unwrap_or(""), 3));
    }
    for c in &a.ambiguous_calls {
        out.push_str(&format!("?  line {}: {} could call any of:\n", c.call.line, c.call.text));
        for m in &c.candidates {
            out.push_str(&format!("     {}#{}   {}:{}\n", m.class, m.signature, m.file, m.start_line));
        }
    }
    if !a.unresolved_calls.is_empty() {
        out.push_str("   Unresolved calls:\n");
        for c in &a.unresolved_calls {
            out.push_str(&format!("     line {}: {}   ({})\n", c.call.line, c.call.text, c.reason));
        }
    }

    out.push_str(&format!("\n== Callers ({})\n", a.callers.len()));
    for c in &a.callers {
        let maybe = if c.certain { "" } else { "  [possibly: the call is ambiguous between overloads]" };
        out.push_str(&format!(
            "<- {}#{}   {}:{}   line {}: {}{maybe}\n",
            c.method.class, c.method.signature, c.method.file, c.method.start_line, c.call.line, c.call.text
        ));
        out.push_str(&indent(c.method.code.as_deref().unwrap_or(""), 3));
    }

    let h = &a.hierarchy;
    out.push_str("\n== Hierarchy\n");
    let types = |v: &[TypeView]| {
        if v.is_empty() {
            "(none in the project)".to_string()
        } else {
            v.iter()
                .map(|t| match &t.file {
                    Some(f) => format!("{} ({f})", t.name),
                    None => format!("{} (external)", t.name),
                })
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    out.push_str(&format!("   Supertypes:    {}\n", types(&h.supertypes)));
    out.push_str(&format!("   Subtypes:      {}\n", types(&h.subtypes)));
    let methods = |v: &[MethodView]| {
        if v.is_empty() {
            "(none)".to_string()
        } else {
            v.iter()
                .map(|m| format!("{}#{} ({}:{})", m.class, m.signature, m.file, m.start_line))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    out.push_str(&format!("   Overrides:     {}\n", methods(&h.overrides)));
    out.push_str(&format!("   Overridden by: {}\n", methods(&h.overridden_by)));

    out.push_str("\n== Project\n");
    out.push_str(&indent(&a.project.render(), 3));
    out
}

fn indent(text: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    let mut out = String::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            out.push('\n');
        } else {
            out.push_str(&pad);
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}
