//! The new method's signature: parameter and local types, a name that does not clash, type
//! parameters, thrown exceptions, and the region of text it takes.

use super::{Extractor, Selection, ancestors_until};
use crate::engine::dataflow::{MethodFlow, VarKind, var_type};
use crate::engine::{Reason, Refusal};
use crate::java::syntax::Kind;
use crate::java::syntax::{erased_type, is_type_body, named_child_of_kind, walk};
use crate::text::contains_word;
use tree_sitter::Node;

impl<'a> Extractor<'a> {
    /// The declared type of a local, with `var` resolved from its initializer.
    pub(super) fn type_of(&self, flow: &MethodFlow<'_>, i: usize) -> Result<String, Refusal> {
        let var = &flow.vars[i];
        let line = var.name_node.start_position().row + 1;
        let hint = self.spec.local_types.get(&var.name).map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
        let Some(ty) = &var.type_text else {
            if let Some(hint) = hint {
                return Ok(hint);
            }
            if let Some(ty) = super::lambda_type::lambda_param_type(flow, var, self.src) {
                return Ok(ty);
            }
            return Err(Refusal::new(
                Reason::UntypedVar,
                format!(
                    "`{}` (line {line}) is a lambda parameter without a declared type, and the call it is passed to does not spell its type out (a collection, stream, `Optional` or map with its type arguments declared), so the new method's parameter type is unknown; declare its type in the lambda, give it in `local_types`, or select other statements",
                    var.name
                ),
            ));
        };
        if ty.contains('|') {
            return Err(Refusal::new(
                Reason::UntypedVar,
                format!(
                    "`{}` (line {line}) is a multi-catch parameter of type `{ty}`, which a method parameter cannot have; select statements that do not use it",
                    var.name
                ),
            ));
        }
        if ty == "var" {
            return var.initializer.and_then(|init| var_type(init, self.src)).or(hint).ok_or_else(|| {
                Refusal::new(
                    Reason::UntypedVar,
                    format!(
                        "`{}` is declared with `var` on line {line} and its type is not visible from its initializer; declare its type explicitly or give it in `local_types`",
                        var.name
                    ),
                )
            });
        }
        if var.kind == VarKind::Bound && ty.trim_start().starts_with("var") && ty.trim() == "var" {
            return Err(Refusal::new(Reason::UntypedVar, format!("`{}` (line {line}) has an inferred type", var.name)));
        }
        Ok(ty.clone())
    }

    /// Refuses parameter types that name a class declared inside the method (invisible outside it).
    pub(super) fn check_local_types<'t>(
        &self,
        sel: &Selection<'_>,
        types: impl Iterator<Item = &'t str>,
    ) -> Result<(), Refusal> {
        let mut local_types = Vec::new();
        walk(sel.body, &mut |n| {
            if matches!(
                n.kind_name(),
                "class_declaration" | "record_declaration" | "enum_declaration" | "interface_declaration"
            ) && let Some(name) = n.child_by_field_name("name")
            {
                local_types.push(&self.src[name.byte_range()]);
            }
            true
        });
        for ty in types {
            if let Some(t) = local_types.iter().find(|t| contains_word(ty, t)) {
                return Err(Refusal::new(
                    Reason::LocalType,
                    format!(
                        "a parameter would have the type `{ty}`, but `{t}` is a class declared inside the method and not visible outside it"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Refuses a name whose signature already exists in the class (same name, same erased types).
    pub(super) fn check_name_clash(&self, sel: &Selection<'_>, params: &[(String, String)]) -> Result<(), Refusal> {
        let Some(class_body) = sel.callable.parent().filter(|p| is_type_body(p.kind_name())) else { return Ok(()) };
        let src = self.src;
        let wanted: Vec<String> = params.iter().map(|(t, _)| erased_type(t)).collect();
        let signature =
            format!("{}({})", self.spec.name, params.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>().join(", "));
        let clash = |what: String| Err(Refusal::new(Reason::NameClash, format!("{what}; choose another name")));
        // Every class has `Object`'s methods: a private `hashCode()` would not compile.
        use crate::engine::rename::family::{OBJECT, matches_erased};
        if OBJECT.iter().any(|e| matches_erased(e, &self.spec.name, &wanted)) {
            return clash(format!("every class has `Object`'s `{signature}`"));
        }
        let mut cursor = class_body.walk();
        for m in class_body.named_children(&mut cursor).filter(|m| m.kind_name() == "method_declaration") {
            if m.child_by_field_name("name").is_none_or(|n| src[n.byte_range()] != *self.spec.name) {
                continue;
            }
            let Some(plist) = m.child_by_field_name("parameters") else { continue };
            let mut c = plist.walk();
            let types: Vec<String> = plist
                .named_children(&mut c)
                .filter_map(|p| match p.kind_name() {
                    "formal_parameter" => p.child_by_field_name("type").map(|t| {
                        let dims = p.child_by_field_name("dimensions").map(|d| &src[d.byte_range()]).unwrap_or("");
                        erased_type(&format!("{}{dims}", &src[t.byte_range()]))
                    }),
                    "spread_parameter" => {
                        let mut c = p.walk();
                        p.named_children(&mut c)
                            .find(|x| x.kind_name() != "modifiers" && !x.kind_name().ends_with("annotation"))
                            .map(|t| erased_type(&format!("{}[]", &src[t.byte_range()])))
                    }
                    _ => None, // receiver parameters are not part of the signature
                })
                .collect();
            if types == wanted {
                return clash(format!(
                    "the class already declares `{signature}` (line {})",
                    m.start_position().row + 1
                ));
            }
        }
        Ok(())
    }

    /// Bytes to replace: the fragment, plus comment lines selected before it and comments that
    /// trail its last line or sit between it and the end of the selection.
    pub(super) fn region(&self, sel: &Selection<'_>, frag: std::ops::Range<usize>) -> std::ops::Range<usize> {
        let (a, b) = self.spec.lines;
        let mut start = frag.start;
        let mut end = frag.end;
        let last_line = sel.statements[sel.statements.len() - 1].end_position().row + 1;
        let mut cursor = sel.container.walk();
        let comments: Vec<Node<'_>> = sel
            .container
            .named_children(&mut cursor)
            .filter(|c| crate::java::syntax::is_comment(c.kind_name()))
            .collect();
        for c in comments.iter().rev() {
            let line = c.start_position().row + 1;
            if c.end_byte() <= start && line >= a && self.only_whitespace(c.end_byte(), start) {
                start = c.start_byte();
            }
        }
        for c in &comments {
            let line = c.start_position().row + 1;
            if c.start_byte() >= end && (line == last_line || line <= b) && self.only_whitespace(end, c.start_byte()) {
                end = c.end_byte();
            }
        }
        start..end
    }

    pub(super) fn only_whitespace(&self, from: usize, to: usize) -> bool {
        self.src[from..to].trim().is_empty()
    }

    /// The enclosing method's type parameters that the new method needs.
    pub(super) fn type_parameters(&self, sel: &Selection<'_>, params: &[(String, String)], ret: &str) -> Vec<String> {
        let src = self.src;
        let Some(tps) = sel.callable.child_by_field_name("type_parameters") else { return Vec::new() };
        let mut cursor = tps.walk();
        let all: Vec<(String, String)> = tps
            .named_children(&mut cursor)
            .filter(|t| t.kind_name() == "type_parameter")
            .filter_map(|t| {
                let mut c = t.walk();
                let name =
                    t.named_children(&mut c).find(|n| matches!(n.kind_name(), "type_identifier" | "identifier"))?;
                Some((src[name.byte_range()].to_string(), src[t.byte_range()].to_string()))
            })
            .collect();
        let mut used_text: String = params.iter().map(|(t, _)| format!("{t} ")).collect();
        used_text.push_str(ret);
        let mut fragment_types = String::new();
        for s in &sel.statements {
            walk(*s, &mut |n| {
                if n.kind_name() == "type_identifier" {
                    fragment_types.push_str(&src[n.byte_range()]);
                    fragment_types.push(' ');
                }
                true
            });
        }
        used_text.push(' ');
        used_text.push_str(&fragment_types);
        let mut keep = vec![false; all.len()];
        loop {
            let mut changed = false;
            for (i, (name, decl)) in all.iter().enumerate() {
                if !keep[i] && contains_word(&used_text, name) {
                    keep[i] = true;
                    used_text.push(' ');
                    used_text.push_str(decl);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        all.into_iter().zip(keep).filter(|(_, k)| *k).map(|((_, decl), _)| decl).collect()
    }

    /// The `throws` clause of the new method.
    ///
    /// Without types we cannot tell which checked exceptions a statement throws, so the rule is
    /// deliberately simple and safe: if the fragment contains anything that can throw (a call, a
    /// `new`, a `throw`), the new method declares what the enclosing method declares plus what the
    /// `try` statements around the fragment catch (a `try { fragment } catch (IOException e)` in a
    /// method without `throws` is how a fragment throws a checked exception that the method does
    /// not). Declaring an exception the body never throws is legal Java, and every declared
    /// exception is handled or declared at the call site, because that is where it came from.
    /// Calls the project model knows to throw no checked exception (`quiet_calls`: project
    /// methods declaring none, the JDK's collections, strings and numbers) do not count, so a
    /// fragment of only those declares nothing, as a careful author would write it.
    pub(super) fn throws(&self, sel: &Selection<'_>, frag: std::ops::Range<usize>, in_lambda: bool) -> Vec<String> {
        let src = self.src;
        let mut can_throw = false;
        let quiet = |n: Node<'_>| self.spec.quiet_calls.contains(&(n.start_byte(), n.end_byte()));
        for s in &sel.statements {
            walk(*s, &mut |n| {
                match n.kind_name() {
                    "method_invocation" | "object_creation_expression" if !quiet(n) => can_throw = true,
                    // A resource's `close()` may throw what no call spells.
                    "throw_statement" | "try_with_resources_statement" => can_throw = true,
                    _ => {}
                }
                !can_throw && (n.id() == s.id() || n.kind_name() != "lambda_expression")
            });
        }
        if !can_throw {
            return Vec::new();
        }
        let mut out: Vec<String> = Vec::new();
        let mut push = |t: &str| {
            let t = t.trim().to_string();
            if !t.is_empty() && !out.contains(&t) {
                out.push(t);
            }
        };
        if !in_lambda && let Some(throws) = named_child_of_kind(sel.callable, "throws") {
            let mut c = throws.walk();
            for t in throws.named_children(&mut c) {
                push(&src[t.byte_range()]);
            }
        }
        for n in ancestors_until(sel.container, sel.callable) {
            if n.kind_name() == "lambda_expression" {
                break;
            }
            if !matches!(n.kind_name(), "try_statement" | "try_with_resources_statement") {
                continue;
            }
            let in_body =
                n.child_by_field_name("body").is_some_and(|b| b.start_byte() <= frag.start && frag.end <= b.end_byte());
            if !in_body {
                continue;
            }
            let mut c = n.walk();
            for clause in n.named_children(&mut c).filter(|c| c.kind_name() == "catch_clause") {
                let Some(param) = named_child_of_kind(clause, "catch_formal_parameter") else { continue };
                let Some(types) = named_child_of_kind(param, "catch_type") else { continue };
                let mut c2 = types.walk();
                for t in types.named_children(&mut c2) {
                    push(&src[t.byte_range()]);
                }
            }
        }
        out
    }
}
