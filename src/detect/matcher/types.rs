//! What the types at hand tell about a call: which class a receiver's type is, whether a method
//! is reachable without one, whether a class inherits from another.

use super::*;

impl Diff<'_> {
    /// Whether method `m` can be called without a receiver from `class` (same side): static
    /// (imported or qualified elsewhere), declared in an enclosing class, or inherited.
    pub(super) fn reachable(&self, before: bool, m: usize, class: usize) -> bool {
        let side = self.side(before);
        let owner = side.class_of(m);
        let caller = &side.classes[class];
        side.methods[m].is_static
            || caller.name.starts_with(&format!("{}.", owner.name))
            || self.inherits(side, class, &owner.simple, 4)
    }

    /// The erased simple type of a call's receiver in method `m`, when it can be told from the
    /// declarations at hand: a parameter, local or field by that name, a class name, `new T(..)`.
    pub(super) fn receiver_type(&self, before: bool, m: usize, call: &Call) -> Option<String> {
        self.type_of_receiver(before, m, &call.receiver)
    }

    /// [`Self::receiver_type`] of a receiver's normalised text (`a . b`), as a method reference
    /// names one (`context::onComplete`).
    pub(super) fn type_of_receiver(&self, before: bool, m: usize, receiver: &str) -> Option<String> {
        let side = self.side(before);
        let method = &side.methods[m];
        let toks: Vec<&str> = receiver.split(' ').collect();
        if toks.first() == Some(&"new") {
            return toks.get(1).map(|t| t.to_string());
        }
        if toks.len() != 1 {
            // `a.b.C` (a qualified class name) ends in its simple name; anything else is unknown.
            let names = toks.iter().step_by(2).all(|t| t.starts_with(|c: char| c.is_alphabetic()));
            let dots = toks.iter().skip(1).step_by(2).all(|t| *t == ".");
            let last = toks.last()?;
            return (names && dots && last.starts_with(|c: char| c.is_uppercase())).then(|| last.to_string());
        }
        let name = toks[0];
        if let Some((_, t)) = method.params.iter().find(|(n, _)| n == name) {
            return Some(model::erase(t, 0));
        }
        if let Some((_, t)) = method.locals.iter().find(|(n, _)| n == name) {
            return Some(t.clone());
        }
        // Fields of the class, its enclosing classes and its superclasses at hand.
        let mut class_name = side.class_of(m).name.clone();
        loop {
            if let Some(&c) = side.class_by_name.get(&class_name) {
                let class = &side.classes[c];
                let supers = class.supers.iter().filter_map(|s| side.classes.iter().find(|k| k.simple == *s));
                for k in std::iter::once(class).chain(supers) {
                    if let Some((_, t)) = k.fields.iter().find(|(n, _)| n == name) {
                        return Some(t.clone());
                    }
                }
            }
            match class_name.rfind('.') {
                Some(i) => class_name.truncate(i),
                None => break,
            }
        }
        name.starts_with(|c: char| c.is_uppercase()).then(|| name.to_string())
    }

    /// Whether a receiver of type `ty` can hold methods of `class`: the class, a supertype of it
    /// (an override), or a subtype of it (an inherited method).
    pub(super) fn type_fits(&self, before: bool, ty: &str, class: usize) -> bool {
        let side = self.side(before);
        let target = &side.classes[class];
        target.simple == ty
            || target.supers.iter().any(|s| s == ty)
            || side.classes.iter().enumerate().any(|(i, c)| c.simple == ty && self.inherits(side, i, &target.simple, 4))
    }

    /// Whether `class` has a supertype named `simple`, looking `depth` levels up through the side's classes.
    pub(super) fn inherits(&self, side: &Side, class: usize, simple: &str, depth: u32) -> bool {
        let supers = &side.classes[class].supers;
        if supers.iter().any(|s| s == simple) {
            return true;
        }
        depth > 0
            && supers.iter().any(|s| {
                side.classes
                    .iter()
                    .enumerate()
                    .any(|(i, c)| c.simple == *s && i != class && self.inherits(side, i, simple, depth - 1))
            })
    }
}
