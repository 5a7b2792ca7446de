//! Call-site rewriting: every call of the moved method, in every file, for its new home.

use super::body::Rewriter;
use super::text::{
    cfile_static_import, list_items, method_node, needs_parens, next_line_start, node_with_span, rewrite_list,
};
use super::{CallSites, Mover, Via, Vis, refuse};
use crate::engine::{Edit, Reason, Refusal};
use crate::java::project::{FileId, MethodId, TypeId};
use crate::java::symbols::{CallKind, FieldDecl, Receiver};
use crate::java::syntax::trivial_getter_field;
use std::collections::BTreeSet;

impl<'p> Mover<'p> {
    /// A getter of `field` that code in `from` can call: an instance method of the source without
    /// parameters whose whole body is `return f;` (or `return this.f;`).
    fn getter_of(&self, field: &FieldDecl, from: TypeId) -> Option<String> {
        let project = self.project;
        project.methods_of(self.source).into_iter().map(|m| project.method(m)).find_map(|m| {
            let node = method_node(self.file, m)?;
            let returns = trivial_getter_field(node, &self.file.text) == Some(field.name.as_str());
            let callable = self.accessible(from, self.source, Vis::of(&m.modifiers, false));
            (returns && callable && !m.is_static()).then(|| m.name.clone())
        })
    }

    pub(super) fn call_sites(&self, via: &Via<'p>, dest: TypeId, rw: &Rewriter<'_, 'p>) -> Result<CallSites, Refusal> {
        let project = self.project;
        let mut out = CallSites::default();
        let source_q = project.qualified_name(self.source);
        let dest_q = project.qualified_name(dest);
        let mut rewritten_static_imports: BTreeSet<(FileId, usize)> = BTreeSet::new();
        for caller in project.callers(self.method) {
            if caller.method == self.method {
                continue; // recursion: rewritten with the body
            }
            // A caller inside the method's own text: a class declared in it. Spans are byte ranges
            // of one file, so only a caller in the same file can be inside.
            if caller.method.file() == self.method.file()
                && self.decl.span.contains(&project.method(caller.method).span)
            {
                return Err(refuse(
                    Reason::RecursiveOtherReceiver,
                    format!(
                        "the method calls itself from a class declared inside it (line {}); mantra does not rewrite that",
                        project.method(caller.method).calls[caller.call].span.start_line
                    ),
                ));
            }
            let cdecl = project.method(caller.method);
            let site = &cdecl.calls[caller.call];
            let cfile = project.method_source(caller.method);
            let line = site.span.start_line;
            let at = format!("{}:{line}", cfile.path.display());
            if !caller.certain {
                return Err(refuse(
                    Reason::AmbiguousCall,
                    format!(
                        "the call `{}` at {at} may target this method or an overload; mantra cannot tell which, so it cannot update it",
                        project.call_text(caller.method, caller.call)
                    ),
                ));
            }
            if site.kind == CallKind::MethodRef {
                return Err(refuse(
                    Reason::MethodReference,
                    format!(
                        "the method reference `{}` at {at} cannot follow the method; rewrite it as a lambda first, or keep a delegate (--keep-delegate)",
                        project.call_text(caller.method, caller.call)
                    ),
                ));
            }
            let Some(call) = node_with_span(cfile, site.span.start_byte, site.span.end_byte, "method_invocation")
            else {
                return Err(refuse(Reason::SyntaxError, format!("the call at {at} is not in the parse tree")));
            };
            let (Some(name_node), Some(args)) =
                (call.child_by_field_name("name"), call.child_by_field_name("arguments"))
            else {
                return Err(refuse(Reason::SyntaxError, format!("the call at {at} has no name or arguments")));
            };
            let object = call.child_by_field_name("object");
            let ctext = &cfile.text;
            let ctype = project.owner(caller.method);
            let path = cfile.path.clone();
            let mut push = |e: Edit| out.edits.push((path.clone(), ctext.clone(), e));
            // What stands for the source object at this call site.
            let source_object = || -> Result<String, Refusal> {
                match &site.receiver {
                    Receiver::Implicit | Receiver::This | Receiver::Super => Ok(self.this_at(ctype)),
                    Receiver::Name(_) | Receiver::Expr => {
                        Ok(object.map(|o| ctext[o.byte_range()].to_string()).unwrap_or_default())
                    }
                }
            };
            match via {
                Via::Param { index, .. } => {
                    let arg_nodes = list_items(args);
                    let Some(arg) = arg_nodes.get(*index).copied() else {
                        return Err(refuse(Reason::AmbiguousCall, format!("the call at {at} has too few arguments")));
                    };
                    if arg.kind() == "null_literal" {
                        return Err(refuse(
                            Reason::NullArgument,
                            format!("the call at {at} passes `null` for the parameter that would become the receiver"),
                        ));
                    }
                    let arg_text = &ctext[arg.byte_range()];
                    let receiver = if arg.kind() == "this" && ctype == dest {
                        String::new()
                    } else if needs_parens(arg) {
                        format!("({arg_text}).")
                    } else {
                        format!("{arg_text}.")
                    };
                    let prepend = if rw.needs_source { Some(source_object()?) } else { None };
                    match object {
                        Some(o) => push(Edit::replace(o.start_byte()..name_node.start_byte(), receiver)),
                        None if !receiver.is_empty() => push(Edit::insert(name_node.start_byte(), receiver)),
                        None => {}
                    }
                    for e in rewrite_list(args, Some(*index), prepend) {
                        push(e);
                    }
                }
                Via::Field { field } => {
                    let receiver = match &site.receiver {
                        Receiver::Implicit | Receiver::This | Receiver::Super => {
                            self.field_at(field, caller.method, ctype, &at)?
                        }
                        Receiver::Name(_) | Receiver::Expr => {
                            let vis = Vis::of(&field.modifiers, false);
                            // A field the caller cannot see is read through its getter, when the
                            // class has one the caller can call (`return f;` and nothing else).
                            let getter = (!self.accessible(ctype, self.source, vis))
                                .then(|| self.getter_of(field, ctype))
                                .flatten();
                            if !self.accessible(ctype, self.source, vis) && getter.is_none() {
                                return Err(refuse(
                                    Reason::FieldNotAccessible,
                                    format!(
                                        "the call at {at} would have to go through the field `{}`, which is {} in `{}` and has no getter the caller can call; keep a delegate (--keep-delegate) or make the field accessible",
                                        field.name,
                                        vis.keyword().unwrap_or("package-private"),
                                        source_q
                                    ),
                                ));
                            }
                            if rw.needs_source && site.receiver == Receiver::Expr {
                                return Err(refuse(
                                    Reason::ComplexReceiver,
                                    format!(
                                        "the call at {at} is made on an expression that would have to be evaluated twice; assign it to a variable first"
                                    ),
                                ));
                            }
                            let o = object.map(|o| &ctext[o.byte_range()]).unwrap_or("");
                            match getter {
                                Some(g) => format!("{o}.{g}()"),
                                None => format!("{o}.{}", field.name),
                            }
                        }
                    };
                    let prepend = if rw.needs_source { Some(source_object()?) } else { None };
                    match object {
                        Some(o) => push(Edit::replace(o.start_byte()..name_node.start_byte(), format!("{receiver}."))),
                        None => push(Edit::insert(name_node.start_byte(), format!("{receiver}."))),
                    }
                    for e in rewrite_list(args, None, prepend) {
                        push(e);
                    }
                }
                Via::Static if self.stays_instance() => {
                    return Err(refuse(
                        Reason::NoDestinationInstance,
                        format!(
                            "{} stays an instance method of `{dest_q}` (its test framework calls it), and the call at {at} has no `{dest_q}` object to call it on",
                            self.name()
                        ),
                    ));
                }
                Via::Static if !self.decl.is_static() => {
                    // An instance method made static: `x.m(a)` becomes `Dest.m(x, a)` and `m(a)`
                    // becomes `Dest.m(this, a)`; without the source object, `Dest.m(a)`.
                    if !rw.needs_source && site.receiver == Receiver::Expr {
                        return Err(refuse(
                            Reason::ComplexReceiver,
                            format!(
                                "the call at {at} is made on an expression the static method would no longer evaluate; assign it to a variable first"
                            ),
                        ));
                    }
                    let qualifier = if ctype == dest {
                        String::new()
                    } else {
                        let (text, import) = self.type_ref(caller.method.file(), ctype, dest);
                        if let Some(import) = import {
                            out.imports.entry(caller.method.file()).or_default().insert((import, false, false));
                        }
                        format!("{text}.")
                    };
                    let prepend = if rw.needs_source { Some(source_object()?) } else { None };
                    match object {
                        Some(o) => push(Edit::replace(o.start_byte()..name_node.start_byte(), qualifier)),
                        None if !qualifier.is_empty() => push(Edit::insert(name_node.start_byte(), qualifier)),
                        None => {}
                    }
                    for e in rewrite_list(args, None, prepend) {
                        push(e);
                    }
                }
                Via::Static => {
                    let nested = self.nested_in_source(ctype);
                    let static_import = cfile_static_import(project, caller.method, &source_q, &self.decl.name);
                    match (&site.receiver, object) {
                        (Receiver::Implicit, _) if !nested && static_import.is_some() => {
                            // `import static a.Source.m;` follows the method; the call stays as it is.
                            let Some((fid, imp_start, imp_end, path_start, path_end)) = static_import else {
                                continue;
                            };
                            if rewritten_static_imports.insert((fid, imp_start)) {
                                let others = project.methods_of(self.source).into_iter().any(|m| {
                                    m != self.method
                                        && project.method(m).name == self.decl.name
                                        && project.method(m).is_static()
                                });
                                if others {
                                    let nl = if ctext.contains("\r\n") { "\r\n" } else { "\n" };
                                    push(Edit::insert(
                                        next_line_start(ctext, imp_end),
                                        format!("import static {dest_q}.{};{nl}", self.decl.name),
                                    ));
                                } else {
                                    push(Edit::replace(path_start..path_end, format!("{dest_q}.{}", self.decl.name)));
                                }
                            }
                        }
                        (Receiver::Implicit, _) | (Receiver::Name(_), Some(_)) if ctype == dest => {
                            // Inside the destination the method needs no qualifier.
                            if let Some(o) = object {
                                push(Edit::delete(o.start_byte()..name_node.start_byte()));
                            }
                        }
                        (Receiver::Implicit, _) | (Receiver::Name(_), Some(_)) => {
                            let (text, import) = self.type_ref(caller.method.file(), ctype, dest);
                            if let Some(import) = import {
                                out.imports.entry(caller.method.file()).or_default().insert((import, false, false));
                            }
                            match object {
                                Some(o) => {
                                    push(Edit::replace(o.start_byte()..name_node.start_byte(), format!("{text}.")))
                                }
                                None => push(Edit::insert(name_node.start_byte(), format!("{text}."))),
                            }
                        }
                        _ => {
                            return Err(refuse(
                                Reason::ComplexReceiver,
                                format!(
                                    "the static call at {at} is made through an expression; call it as `{}.{}(...)` first",
                                    project.type_decl(self.source).name,
                                    self.decl.name
                                ),
                            ));
                        }
                    }
                }
            }
            // A class named only to reach the method may no longer be needed by the caller's file.
            out.unused.entry(caller.method.file()).or_default().insert(project.type_decl(self.source).name.clone());
            out.caller_types.push(ctype);
            out.count += 1;
        }
        Ok(out)
    }

    /// Whether `ty` is the source or declared (at any depth) inside it.
    pub(super) fn nested_in_source(&self, ty: TypeId) -> bool {
        let mut t = Some(ty);
        while let Some(x) = t {
            if x == self.source {
                return true;
            }
            t = self.project.enclosing_type(x);
        }
        false
    }

    /// `this` as the source object seen from code in `ty`.
    pub(super) fn this_at(&self, ty: TypeId) -> String {
        let project = self.project;
        if ty == self.source || project.supertypes(ty).contains(&self.source) {
            "this".into()
        } else {
            format!("{}.this", project.type_decl(self.source).name)
        }
    }

    /// The field as named from an unqualified call in `caller` (inside `ty`).
    pub(super) fn field_at(
        &self,
        field: &FieldDecl,
        caller: MethodId,
        ty: TypeId,
        at: &str,
    ) -> Result<String, Refusal> {
        let project = self.project;
        let cdecl = project.method(caller);
        let shadowed =
            cdecl.params.iter().any(|p| p.name == field.name) || cdecl.locals.iter().any(|l| l.name == field.name);
        if ty == self.source {
            return Ok(if shadowed { format!("this.{}", field.name) } else { field.name.clone() });
        }
        let vis = Vis::of(&field.modifiers, false);
        if !self.accessible(ty, self.source, vis) {
            return Err(refuse(
                Reason::FieldNotAccessible,
                format!(
                    "the call at {at} would have to go through the field `{}`, which `{}` cannot see; keep a delegate (--keep-delegate)",
                    field.name,
                    project.qualified_name(ty)
                ),
            ));
        }
        let own = project.type_decl(ty).fields.iter().any(|f| f.name == field.name);
        if shadowed || own {
            if self.nested_in_source(ty) {
                return Ok(format!("{}.this.{}", project.type_decl(self.source).name, field.name));
            }
            return Err(refuse(
                Reason::FieldShadowed,
                format!("at {at} the name `{}` means something else; rename it there first", field.name),
            ));
        }
        Ok(field.name.clone())
    }
}
