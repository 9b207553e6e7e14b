//! The words on a button that pays, sends or deletes (isHighStakes), in the seven languages:
//! one table per concept, one line per language, every entry folded (`crate::fold`) and
//! written as the label's words joined by one space (`procedi all ordine`, `confirmer le
//! achat` for "Confirmer l'achat").
//!
//! An entry of one word is a verb that leads its label ("Pay", "Payer con…", "Send message");
//! German and Dutch infinitives also end it ("Jetzt kaufen", "Account verwijderen"). An entry
//! of several words is a phrase that counts wherever it stands in a button's label. How a label
//! is read against these is `law::browser::high_stakes`.
//!
//! German words with an umlaut are written twice, folded (`loschen`) and as typed without
//! umlauts (`loeschen`), as in `intent::words`.

use crate::intent::words::Lang::{De, En, Es, Fr, It, Nl, Pt};
use crate::intent::words::Table;

/// Paying, buying, ordering, booking, moving money: NEVER lifted by words.
#[rustfmt::skip]
pub const PAYS: Table = &[
    (En, &["book now", "buy", "buy it now", "buy now", "checkout", "complete booking", "complete order", "complete purchase", "confirm and pay", "confirm booking", "confirm order", "confirm payment", "confirm purchase", "donate", "express checkout", "go to checkout", "order now", "pay", "pay now", "place order", "place your order", "proceed to checkout", "proceed to payment", "purchase", "secure checkout", "send money", "submit order", "submit payment", "transfer", "transfer money", "wire transfer"]),
    (De, &["bestellen", "bestellung abschicken", "bestellung absenden", "bezahlen", "buchen", "jetzt bestellen", "jetzt bezahlen", "jetzt buchen", "jetzt kaufen", "jetzt spenden", "jetzt zahlen", "kauf abschliessen", "kauf bestaetigen", "kauf bestatigen", "kaufen", "kostenpflichtig bestellen", "sofort kaufen", "spenden", "uberweisen", "uberweisung ausfuhren", "ueberweisen", "ueberweisung ausfuehren", "verbindlich buchen", "zahlung bestaetigen", "zahlung bestatigen", "zahlungspflichtig bestellen", "zahlungspflichtig buchen", "zum checkout", "zur kasse"]),
    (Fr, &["acheter", "acheter maintenant", "commander", "confirmer la commande", "confirmer le achat", "confirmer le paiement", "faire un don", "finaliser la commande", "passer commande", "passer la commande", "payer", "payer maintenant", "proceder au paiement", "reserver maintenant", "valider et payer", "valider la commande", "valider le paiement", "valider le virement", "virement"]),
    (Es, &["comprar", "comprar ahora", "confirmar compra", "confirmar pago", "confirmar pedido", "donar", "finalizar compra", "finalizar pedido", "hacer pedido", "pagar", "pagar ahora", "proceder al pago", "realizar pago", "realizar pedido", "realizar transferencia", "reservar ahora", "tramitar pedido", "transferir"]),
    (Pt, &["comprar", "comprar agora", "concluir compra", "confirmar compra", "confirmar pagamento", "confirmar pedido", "doar", "efetuar pagamento", "fazer transferencia", "fechar pedido", "finalizar compra", "finalizar pedido", "pagar", "pagar agora", "reservar agora", "transferir"]),
    (It, &["acquista", "acquista ora", "acquista subito", "bonifico", "completa acquisto", "compra", "compra ora", "concludi ordine", "conferma acquisto", "conferma ordine", "conferma pagamento", "dona", "esegui bonifico", "invia ordine", "ordina ora", "paga", "paga ora", "prenota ora", "procedi al pagamento", "procedi all ordine", "vai alla cassa"]),
    (Nl, &["afrekenen", "bestel nu", "bestellen", "bestelling afronden", "bestelling plaatsen", "betaal nu", "betalen", "boeken", "direct kopen", "doneren", "koop nu", "kopen", "naar de kassa", "nu bestellen", "nu betalen", "nu boeken", "nu kopen", "overboeken", "overmaken"]),
];

/// Speaking for the person: sending, posting, publishing, inviting.
#[rustfmt::skip]
pub const SENDS: Table = &[
    (En, &["invite", "make public", "post", "post comment", "publish", "schedule send", "send", "send email", "send message", "send now"]),
    (De, &["abschicken", "absenden", "einladen", "jetzt senden", "nachricht senden", "oeffentlich machen", "offentlich machen", "posten", "senden", "veroeffentlichen", "veroffentlichen", "verschicken", "versenden"]),
    (Fr, &["envoyer", "envoyer le message", "inviter", "publier", "rendre public"]),
    (Es, &["enviar", "enviar mensaje", "hacer publico", "invitar", "publicar"]),
    (Pt, &["convidar", "enviar", "enviar mensagem", "postar", "publicar", "tornar publico"]),
    (It, &["invia", "invia messaggio", "invita", "pubblica", "rendi pubblico"]),
    (Nl, &["bericht plaatsen", "openbaar maken", "publiceren", "reactie plaatsen", "uitnodigen", "versturen", "verstuur", "verstuur nu", "verzenden"]),
];

/// Deleting, cancelling, closing for good.
#[rustfmt::skip]
pub const DELETES: Table = &[
    (En, &["cancel my subscription", "cancel order", "cancel subscription", "close account", "delete", "delete forever", "delete permanently", "destroy", "empty trash", "erase", "permanently delete", "terminate"]),
    (De, &["abo kuendigen", "abo kundigen", "endgueltig loeschen", "endgultig loschen", "kuendigen", "kundigen", "loeschen", "loschen", "papierkorb leeren", "stornieren"]),
    (Fr, &["annuler la commande", "annuler le abonnement", "effacer", "resilier", "supprimer", "supprimer definitivement", "vider la corbeille"]),
    (Es, &["borrar", "cancelar pedido", "cancelar suscripcion", "eliminar", "eliminar definitivamente", "vaciar papelera"]),
    (Pt, &["apagar", "cancelar assinatura", "cancelar pedido", "eliminar", "esvaziar lixeira", "excluir", "excluir permanentemente"]),
    (It, &["annulla abbonamento", "annulla ordine", "cancella", "elimina", "elimina definitivamente", "svuota cestino"]),
    (Nl, &["abonnement opzeggen", "bestelling annuleren", "definitief verwijderen", "opzeggen", "prullenbak legen", "verwijder", "verwijderen", "wissen"]),
];

/// What a delete only takes out of the view: filters, the search, a selection, the cart.
/// A label naming one of these ("Alle Filter löschen", "Borrar filtros", "Eliminar del
/// carrito") deletes nothing that lasts.
#[rustfmt::skip]
pub const VIEW: Table = &[
    (En, &["basket", "cart", "filter", "filters", "search", "selection"]),
    (De, &["auswahl", "eingabe", "filter", "suche", "warenkorb"]),
    (Fr, &["filtre", "filtres", "panier", "recherche", "selection"]),
    (Es, &["busqueda", "carrito", "cesta", "filtro", "filtros", "seleccion"]),
    (Pt, &["busca", "carrinho", "filtro", "filtros", "pesquisa", "selecao"]),
    (It, &["carrello", "filtri", "filtro", "ricerca", "selezione"]),
    (Nl, &["filter", "filters", "selectie", "winkelwagen", "zoekopdracht"]),
];

/// A confirmation's first clause ("I understand the consequences, delete this repository",
/// "Ja, endgültig löschen"): the clause after it is the button.
#[rustfmt::skip]
pub const CONFIRMS: Table = &[
    (En, &["agree", "confirm", "ok", "sure", "understand", "yes"]),
    (De, &["bestaetige", "bestatige", "ja", "verstanden", "verstehe"]),
    (Fr, &["comprends", "compris", "confirme", "oui"]),
    (Es, &["confirmo", "entendido", "entiendo", "si"]),
    (Pt, &["confirmo", "entendi", "entendo", "sim"]),
    (It, &["capisco", "capito", "confermo", "si"]),
    (Nl, &["begrepen", "begrijp", "bevestig", "ja", "oke"]),
];

/// The word after a leading verb that makes a sentence addressed to the reader, not a button
/// ("Kaufen Sie hier Ihre Tickets", "Senden Sie uns eine Nachricht"): German's polite address.
/// A button says the infinitive alone ("Kaufen", "Jetzt kaufen").
pub const POLITE: &[&str] = &["sie"];

/// Every table, by name, for the tests.
#[cfg(test)]
pub const TABLES: &[(&str, Table)] = &[
    ("PAYS", PAYS),
    ("SENDS", SENDS),
    ("DELETES", DELETES),
    ("VIEW", VIEW),
    ("CONFIRMS", CONFIRMS),
];

#[cfg(test)]
mod tests {
    use super::TABLES;
    use crate::fold::fold;
    use crate::intent::words::Lang;

    #[test]
    fn every_table_has_every_language_once_in_order() {
        for (name, table) in TABLES {
            let langs: Vec<Lang> = table.iter().map(|(lang, _)| *lang).collect();
            assert_eq!(langs, Lang::ALL.to_vec(), "{name}: languages out of order");
        }
    }

    #[test]
    fn concepts_have_words_in_every_language() {
        for (name, table) in TABLES {
            for (lang, entries) in *table {
                assert!(!entries.is_empty(), "{name} {lang:?} has no words");
            }
        }
    }

    #[test]
    fn entries_are_folded_words_sorted_and_unique() {
        for (name, table) in TABLES {
            for (lang, entries) in *table {
                for entry in *entries {
                    assert_eq!(
                        fold(entry),
                        *entry,
                        "{name} {lang:?}: {entry:?} is not folded"
                    );
                    let words: Vec<&str> = entry.split(' ').collect();
                    assert!(
                        words.iter().all(|w| {
                            !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase())
                        }),
                        "{name} {lang:?}: {entry:?} is not letters and single spaces"
                    );
                }
                for pair in entries.windows(2) {
                    if let [a, b] = pair {
                        assert!(
                            a < b,
                            "{name} {lang:?}: {a:?} then {b:?} is not sorted and unique"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn german_umlauts_are_written_both_ways() {
        for (name, table) in TABLES {
            for (lang, entries) in *table {
                if *lang != Lang::De {
                    continue;
                }
                for entry in *entries {
                    let plain = entry
                        .replace("ae", "a")
                        .replace("oe", "o")
                        .replace("ue", "u");
                    if plain != *entry {
                        assert!(
                            entries.contains(&plain.as_str()),
                            "{name}: {entry:?} has no partner {plain:?}"
                        );
                    }
                }
            }
        }
    }
}
