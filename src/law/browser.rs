//! Browser steps: opening, clicking, choosing and typing on a site is reading it further, and
//! goes in Auto with only the person in the chat, before and after reading. What asks:
//!
//! | rule | what | harm + lasting | after reading, Auto |
//! | --- | --- | --- | --- |
//! | `browser.high_stakes` | a label clicked, chosen or opened that pays, sends or deletes (isHighStakes), in seven languages | 3, irreducible; paying is NEVER | asks in every mode, Full trust too |
//! | `browser.long_text` | over 300 characters typed in | 2, way out | asks |
//! | `browser.secret` | a key or token typed in | 2, NEVER | asks |
//! | `browser.upload` | a file sent to the site | 2, way out | asks |
//! | `browser.download` | a file brought onto this machine | 2 | asks |
//! | `browser.own` | the person's own signed-in browser: their sessions, cookies, accounts | 2, way out | asks |
//! | `browser.others` | someone else's words in the chat, or a skill's list driving it | 3 | asks, before reading too |
//!
//! The site's address is judged as a fetch's (`law::web::address_risks`): a `javascript:` or
//! `file:` address, a drop box, data or a key in the address.
//!
//! Choices where the seed is open, each so the decisions match it:
//!
//! - **What scores 2 asks after reading, not before.** The seed's list of what still asks is
//!   the list of what the per-site question still covers after reading. Before reading nobody
//!   steers the agent, and the law already lets the same acts go there in the shell: an
//!   upload is `curl -F` (`egress.send`, 2), a long text is data sent (2). So a long text, an
//!   upload, a download and the person's own browser are moderate and lasting: 2 before
//!   reading (goes), 3 after (asks). Outside Auto they ask after reading as every way out does.
//! - **High stakes are severe, lasting and irreducible**: 3, so they ask before reading too,
//!   and Full trust does not lift them ("in every mode"). Paying is NEVER (money, ADR 0100);
//!   sending and deleting can be asked for in the person's own words naming the act and the
//!   site ("send the reply on mail.proton.me"), like every other step the law scores.
//! - **Someone else's words or a skill's list** make every browser step ask in Auto (severe
//!   and lasting, 3): the per-site question only goes with a person here. Full trust lets it go:
//!   it is not on the irreducible list.
//! - **Typing is a change** (Plan only refuses it, Ask first and Edit freely ask), opening,
//!   clicking and choosing are not, unless the label is high stakes; uploads and downloads
//!   are changes.
//! - **An unlabelled click** (an icon) is judged by what can be seen: nothing.

use crate::law::rule::RuleId;
mod words;

use super::Assessment;
use super::command::host_names;
use super::web::{address_risks, site_host};
use crate::fold::fold;
use crate::intent::words::{Lang, Table};
use crate::secrets::{carries_secrets, secret_kind};
use crate::step::{BrowserAction, BrowserStep, Context};
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// A text typed in longer than this could carry what was read (characters).
pub const LONG_TEXT: usize = 300;

/// A label of more words than this is text (a link's sentence, a product's title, a banner),
/// not a button: only a phrase it starts with counts.
pub const BUTTON_WORDS: usize = 6;

/// What a high-stakes label does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stakes {
    /// Pays, buys, orders, books, moves money.
    Pays,
    /// Sends, posts, publishes, invites: speaks for the person.
    Sends,
    /// Deletes, cancels, closes for good.
    Deletes,
}

impl Stakes {
    fn what(self) -> &'static str {
        match self {
            Stakes::Pays => "pays or orders",
            Stakes::Sends => "sends or publishes for you",
            Stakes::Deletes => "deletes or cancels",
        }
    }
}

/// What a browser step risks.
pub fn assess(step: &BrowserStep, ctx: &Context) -> Assessment {
    let sends = matches!(step.action, BrowserAction::Type | BrowserAction::Upload);
    // No site: a browser tool that acts on the page it has open (an app's `browser_click`
    // names its element, not the page), whose address was judged when it was opened.
    let (mut risks, host) = if step.site.trim().is_empty() {
        (Vec::new(), "the page open in the browser".to_string())
    } else {
        (
            address_risks(&step.site, sends),
            site_host(&step.site).unwrap_or_else(|| step.site.trim().to_lowercase()),
        )
    };
    let names = || Name::AnyOf(site_names(&host));

    // The label of a field typed into names the field ("Message"), not an act.
    let stakes = match step.action {
        BrowserAction::Type => None,
        _ => high_stakes(&step.label),
    };
    if let Some((stakes, words)) = stakes {
        let risk = Risk::new(
            RuleId::BrowserHighStakes,
            Harm::Severe,
            true,
            format!(
                "{} “{}” on {host}, which {} (“{words}”)",
                verb(step.action),
                shown(&step.label),
                stakes.what()
            ),
        )
        .irreducible()
        .way_out();
        risks.push(match stakes {
            Stakes::Pays => risk.never(),
            Stakes::Sends => risk.wish(Wish::new(Act::Send).naming(names())),
            Stakes::Deletes => risk.wish(Wish::new(Act::Delete).naming(names())),
        });
    }
    match step.action {
        BrowserAction::Type => {
            let n_chars = step.text.chars().count();
            if n_chars > LONG_TEXT {
                risks.push(
                    Risk::new(
                        RuleId::BrowserLongText,
                        Harm::Moderate,
                        true,
                        format!("type {n_chars} characters into {host}: a text that long could carry what this chat read"),
                    )
                    .way_out()
                    .wish(Wish::new(Act::Send).naming(names())),
                );
            }
            if carries_secrets(&step.text) {
                let kind = secret_kind(&step.text).unwrap_or("a key");
                risks.push(
                    Risk::new(
                        RuleId::BrowserSecret,
                        Harm::Severe,
                        false,
                        format!("type {kind} into {host}"),
                    )
                    .never()
                    .way_out(),
                );
            }
        }
        BrowserAction::Upload => risks.push(
            Risk::new(
                RuleId::BrowserUpload,
                Harm::Moderate,
                true,
                format!("upload a file to {host}"),
            )
            .way_out()
            .wish(Wish::new(Act::Send).naming(names())),
        ),
        BrowserAction::Download => risks.push(Risk::new(
            RuleId::BrowserDownload,
            Harm::Moderate,
            true,
            format!("download a file from {host} onto this machine"),
        )),
        BrowserAction::Open | BrowserAction::Click | BrowserAction::Choose => {}
    }
    if step.own_browser {
        risks.push(
            Risk::new(
                RuleId::BrowserOwn,
                Harm::Moderate,
                true,
                format!(
                    "{} on {host} in your own signed-in browser, with your sessions, cookies and accounts",
                    verb(step.action)
                ),
            )
            .way_out(),
        );
    }
    if ctx.others || ctx.skill {
        let who = if ctx.others {
            "someone else's words are in this chat"
        } else {
            "a skill's list drives this chat"
        };
        risks.push(
            Risk::new(
                RuleId::BrowserOthers,
                Harm::Severe,
                true,
                format!("{} on {host} while {who}", verb(step.action)),
            )
            .way_out(),
        );
    }
    Assessment {
        risks,
        changes: stakes.is_some()
            || matches!(
                step.action,
                BrowserAction::Type | BrowserAction::Upload | BrowserAction::Download
            ),
        network: true,
        edit_in_work: false,
    }
}

/// isHighStakes: whether a button's label pays, sends or deletes, and the words that say so.
///
/// The label is folded and cut into words (runs of letters and digits; a run without a
/// letter, a price or a count, is no word). A label of at most [`BUTTON_WORDS`] words is a
/// button: a phrase of a table counts anywhere in it, and a verb of one word counts as its
/// first word ("Pay with card", "Supprimer le compte"), unless the next word addresses the
/// reader ("Kaufen Sie hier Ihre Tickets"), or, for German and Dutch infinitives, as its last
/// ("Jetzt kaufen", "Account verwijderen"). A longer label is text: only a phrase it starts
/// with counts ("Pay now – your card will be charged"). A delete that names what only the
/// view holds (filters, the search, the cart) is no delete. Paying wins over sending, sending
/// over deleting.
pub fn high_stakes(label: &str) -> Option<(Stakes, &'static str)> {
    stakes_of(label).or_else(|| {
        // "I understand the consequences, delete this repository", "Ja, endgültig löschen":
        // after a confirming first clause, the clause that follows is the button. Only in a
        // label short enough to be one (a banner's or a title's clauses are not).
        if label.split_whitespace().count() > CONFIRM_WORDS {
            return None;
        }
        let mut clauses = label.split([',', ';', ':', '—', '–']);
        let first = fold(clauses.next()?);
        let confirms = first
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|word| any_word(words::CONFIRMS, &[word]));
        if !confirms {
            return None;
        }
        clauses.find_map(stakes_of)
    })
}

/// A confirmation's label of more words than this is text, whatever its clauses.
pub const CONFIRM_WORDS: usize = 10;

/// What one label (or one clause of it) does, as [`high_stakes`] reads it.
fn stakes_of(label: &str) -> Option<(Stakes, &'static str)> {
    let folded = fold(label);
    let tokens: Vec<&str> = folded
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.bytes().any(|b| b.is_ascii_alphabetic()))
        .collect();
    if tokens.is_empty() {
        return None;
    }
    let button = tokens.len() <= BUTTON_WORDS;
    let view = any_word(words::VIEW, &tokens);
    [
        (Stakes::Pays, words::PAYS),
        (Stakes::Sends, words::SENDS),
        (Stakes::Deletes, words::DELETES),
    ]
    .into_iter()
    .filter(|(stakes, _)| !(*stakes == Stakes::Deletes && view))
    .find_map(|(stakes, table)| found(table, &tokens, button).map(|entry| (stakes, entry)))
}

/// The first entry of `table` the label's tokens hold, as [`high_stakes`] reads them.
fn found(table: Table, tokens: &[&str], button: bool) -> Option<&'static str> {
    table.iter().find_map(|(lang, entries)| {
        entries.iter().copied().find(|entry| {
            let n_words = entry.split(' ').count();
            if n_words == 1 {
                button && lone_verb(*lang, entry, tokens)
            } else if button {
                (0..tokens.len().saturating_sub(n_words - 1)).any(|at| holds_at(entry, tokens, at))
            } else {
                holds_at(entry, tokens, 0)
            }
        })
    })
}

/// Whether the phrase `entry` stands in `tokens` from `at` on.
fn holds_at(entry: &str, tokens: &[&str], at: usize) -> bool {
    let rest = tokens.get(at..).unwrap_or(&[]);
    entry.split(' ').count() <= rest.len()
        && entry.split(' ').zip(rest).all(|(want, word)| want == *word)
}

/// A verb of one word where a button puts it.
fn lone_verb(lang: Lang, verb: &str, tokens: &[&str]) -> bool {
    let first = tokens.first() == Some(&verb)
        && !tokens
            .get(1)
            .is_some_and(|next| words::POLITE.contains(next));
    let verb_last = matches!(lang, Lang::De | Lang::Nl) && verb.ends_with("en");
    first || verb_last && tokens.last() == Some(&verb)
}

/// Whether any of `tokens` is a one-word entry of `table`.
fn any_word(table: Table, tokens: &[&str]) -> bool {
    table
        .iter()
        .flat_map(|(_, entries)| entries.iter())
        .any(|entry| tokens.contains(entry))
}

/// The names a person's message may use for the site: the host, its shorter form and the
/// site's own name (`www.otto.de` → `www.otto.de`, `otto.de`, `otto`).
fn site_names(host: &str) -> Vec<String> {
    let mut names = host_names(host);
    let labels: Vec<&str> = host.split('.').collect();
    if let Some(name) = labels.len().checked_sub(2).and_then(|i| labels.get(i))
        && name.len() >= 3
        && !names.iter().any(|n| n == name)
    {
        names.push((*name).to_string());
    }
    names
}

fn verb(action: BrowserAction) -> &'static str {
    match action {
        BrowserAction::Open => "open",
        BrowserAction::Click => "click",
        BrowserAction::Choose => "choose",
        BrowserAction::Type => "type",
        BrowserAction::Upload => "upload",
        BrowserAction::Download => "download",
    }
}

/// A label as a reason shows it: one line, 60 characters at most.
fn shown(label: &str) -> String {
    let line = label.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > 60 {
        let cut: String = line.chars().take(59).collect();
        format!("{cut}…")
    } else {
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn high_stakes_labels_fire_in_every_language() {
        let cases = [
            // en
            ("Buy now", Stakes::Pays),
            ("Place order", Stakes::Pays),
            ("Place your order", Stakes::Pays),
            ("Pay", Stakes::Pays),
            ("Pay €45.99", Stakes::Pays),
            ("Checkout", Stakes::Pays),
            ("Proceed to checkout (3 items)", Stakes::Pays),
            ("Confirm purchase", Stakes::Pays),
            ("Submit order", Stakes::Pays),
            ("Transfer", Stakes::Pays),
            ("Send", Stakes::Sends),
            ("Send message", Stakes::Sends),
            ("Delete", Stakes::Deletes),
            ("Delete account", Stakes::Deletes),
            (
                "I understand the consequences, delete this repository",
                Stakes::Deletes,
            ),
            ("Terminate instance", Stakes::Deletes),
            ("Make public", Stakes::Sends),
            ("Ja, endgültig löschen", Stakes::Deletes),
            ("Oui, supprimer", Stakes::Deletes),
            ("Virement", Stakes::Pays),
            ("Esegui bonifico", Stakes::Pays),
            (
                "Pay now – your card ending in 4242 will be charged today",
                Stakes::Pays,
            ),
            // de
            ("Jetzt kaufen", Stakes::Pays),
            ("zahlungspflichtig bestellen", Stakes::Pays),
            ("Jetzt zahlungspflichtig bestellen", Stakes::Pays),
            ("Bestellung abschicken", Stakes::Pays),
            ("Bezahlen", Stakes::Pays),
            ("Kauf abschließen", Stakes::Pays),
            ("Zur Kasse", Stakes::Pays),
            ("Überweisen", Stakes::Pays),
            ("Senden", Stakes::Sends),
            ("Nachricht senden", Stakes::Sends),
            ("Löschen", Stakes::Deletes),
            ("Konto löschen", Stakes::Deletes),
            ("Konto loeschen", Stakes::Deletes),
            // fr
            ("Passer la commande", Stakes::Pays),
            ("Payer", Stakes::Pays),
            ("Acheter", Stakes::Pays),
            ("Confirmer l’achat", Stakes::Pays),
            ("Envoyer", Stakes::Sends),
            ("Supprimer", Stakes::Deletes),
            ("Supprimer le compte", Stakes::Deletes),
            // es
            ("Finalizar compra", Stakes::Pays),
            ("Comprar ahora", Stakes::Pays),
            ("Pagar", Stakes::Pays),
            ("Tramitar pedido", Stakes::Pays),
            ("Enviar", Stakes::Sends),
            ("Eliminar", Stakes::Deletes),
            // pt
            ("Comprar agora", Stakes::Pays),
            ("Fechar pedido", Stakes::Pays),
            ("Enviar mensagem", Stakes::Sends),
            ("Excluir", Stakes::Deletes),
            // it
            ("Acquista ora", Stakes::Pays),
            ("Procedi all'ordine", Stakes::Pays),
            ("Paga", Stakes::Pays),
            ("Invia", Stakes::Sends),
            ("Elimina", Stakes::Deletes),
            // nl
            ("Nu betalen", Stakes::Pays),
            ("Bestelling plaatsen", Stakes::Pays),
            ("Afrekenen", Stakes::Pays),
            ("Betaal nu", Stakes::Pays),
            ("Verzenden", Stakes::Sends),
            ("Verwijderen", Stakes::Deletes),
            ("Account verwijderen", Stakes::Deletes),
        ];
        for (label, want) in cases {
            assert_eq!(
                high_stakes(label).map(|(s, _)| s),
                Some(want),
                "{label:?} should be {want:?}"
            );
        }
    }

    #[test]
    fn ordinary_labels_do_not() {
        let labels = [
            "Add to cart",
            "In den Warenkorb",
            "Sort by price",
            "Nach Preis sortieren",
            "Sortieren: Preis aufsteigend",
            "Filter",
            "Next page",
            "Nächste Seite",
            "Größe M",
            "Details",
            "Kaufen Sie hier Ihre Tickets",
            "Senden Sie uns eine Nachricht",
            "Buy the Gant Original T-Shirt in navy blue at our online store today",
            "Ordina per prezzo",
            "Ordenar por precio: de menor a mayor",
            "Trier par prix croissant",
            "Sorteer op prijs",
            "Ajouter au panier",
            "Añadir a la cesta",
            "Aggiungi al carrello",
            "Adicionar ao carrinho",
            "In winkelwagen",
            "Alle Filter löschen",
            "Borrar filtros",
            "Effacer les filtres",
            "Cancella filtri",
            "Eliminar del carrito",
            "Order history",
            "Payment methods",
            "Delivery and returns",
            "Weiter",
            "Great deals this week: click here to buy now and save",
            "Yes, show me more",
            "Learn more: how to delete your account safely",
            "Sure, remind me later",
            "Oui, continuer",
            "Tickets, Konzerte und Shows: jetzt kaufen und sparen",
            "",
            "€ 29,99",
        ];
        for label in labels {
            assert_eq!(
                high_stakes(label),
                None,
                "{label:?} should not be high stakes"
            );
        }
    }

    #[test]
    fn every_entry_is_found_as_its_own_label() {
        for (want, table) in [
            (Stakes::Pays, words::PAYS),
            (Stakes::Sends, words::SENDS),
            (Stakes::Deletes, words::DELETES),
        ] {
            for (lang, entries) in table {
                for entry in *entries {
                    assert_eq!(
                        high_stakes(entry).map(|(s, _)| s),
                        Some(want),
                        "{lang:?} {entry:?} should be {want:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn what_changes_and_what_is_reading() {
        let step = |action, label: &str, text: &str| BrowserStep {
            action,
            site: "www.otto.de".to_string(),
            label: label.to_string(),
            text: text.to_string(),
            own_browser: false,
        };
        let ctx = Context::default();
        let cases = [
            (
                step(BrowserAction::Click, "Sortieren: Preis aufsteigend", ""),
                false,
            ),
            (step(BrowserAction::Choose, "Größe M", ""), false),
            (step(BrowserAction::Open, "", ""), false),
            (step(BrowserAction::Click, "Jetzt kaufen", ""), true),
            (step(BrowserAction::Type, "Suche", "gant"), true),
            (step(BrowserAction::Upload, "Foto", ""), true),
            (step(BrowserAction::Download, "Rechnung", ""), true),
        ];
        for (step, changes) in cases {
            let found = assess(&step, &ctx);
            assert_eq!(found.changes, changes, "{step:?}");
            assert!(found.network, "{step:?}");
        }
    }

    #[test]
    fn site_names_include_the_sites_own_name() {
        assert_eq!(
            site_names("www.otto.de"),
            ["www.otto.de", "otto.de", "otto"]
        );
        assert_eq!(site_names("otto.de"), ["otto.de", "otto"]);
        assert_eq!(site_names("localhost"), ["localhost"]);
    }
}
