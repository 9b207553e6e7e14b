//! The words an app's tool name and arguments are read with: one table per concept, one
//! line per language, every entry folded (see `crate::fold`), sorted and unique. An entry is
//! one word or a phrase of up to three words ("voeg toe", "mettre a jour"); a tool's name is
//! cut into words first (`get_food`, `GmailSendEmail`, `rechnung-bezahlen`), and where
//! several entries start at the same word the longest wins ("check in" is a change, "check"
//! a lookup).
//!
//! All seven lines of a table apply to every name: the reader doesn't guess the language,
//! so a word that is another language's everyday word for something else is left out or
//! narrowed (German "andere" is "other", so "ändern" is written only as "andern" and
//! "aendern"; "compte" and "conta" are an account, so French, Portuguese and Italian count
//! with "compter", "contar" and "contare" only). German words with an umlaut are written both ways, folded
//! (`loschen`) and as typed without umlauts (`loeschen`). German "zählen" (count) folds to
//! "zahlen" (pay): a tool that counts in German reads as paying, which asks; the other way
//! round would let a payment go.

use crate::intent::words::Lang::{De, En, Es, Fr, It, Nl, Pt};
use crate::intent::words::Table;

/// A lookup: reading, searching, counting, comparing. A name with one of these and no
/// change word is read as a lookup.
#[rustfmt::skip]
pub const LOOKUP: Table = &[
    (En, &["analyse", "analyze", "autocomplete", "browse", "calculate", "check", "compare", "compute", "convert", "count", "describe", "details", "discover", "estimate", "exists", "explain", "explore", "fetch", "find", "forecast", "geocode", "geocoding", "get", "has", "health", "history", "info", "inspect", "is", "list", "locate", "look", "look up", "lookup", "ls", "navigate", "obtain", "overview", "peek", "ping", "predict", "preview", "query", "read", "retrieve", "search", "show", "stats", "status", "suggest", "summarize", "summary", "translate", "validate", "verify", "version", "view", "whoami"]),
    (De, &["abfrage", "abfragen", "abrufen", "anzeigen", "auflisten", "berechne", "berechnen", "details", "ermitteln", "ermittle", "finde", "finden", "hole", "holen", "info", "lese", "lesen", "lies", "liste", "pruefe", "pruefen", "prufe", "prufen", "rufe ab", "status", "suche", "suchen", "ubersicht", "uebersicht", "vergleiche", "vergleichen", "zeig", "zeige", "zeigen"]),
    (Fr, &["affiche", "afficher", "calcule", "calculer", "cherche", "chercher", "compter", "consulte", "consulter", "details", "etat", "lire", "lis", "liste", "lister", "montre", "montrer", "obtenir", "obtiens", "recherche", "rechercher", "recupere", "recuperer", "statut", "traduire", "trouve", "trouver", "verifie", "verifier", "voir", "vois"]),
    (Es, &["busca", "buscar", "calcula", "calcular", "compara", "comparar", "comprobar", "comprueba", "consulta", "consultar", "contar", "detalles", "encontrar", "encuentra", "estado", "lee", "leer", "lista", "listar", "mostrar", "muestra", "obten", "obtener", "obtiene", "recupera", "recuperar", "revisa", "revisar", "traduce", "traducir", "ver", "verifica", "verificar"]),
    (Pt, &["busca", "buscar", "calcula", "calcular", "compara", "comparar", "consulta", "consultar", "contar", "detalhes", "encontra", "encontrar", "estado", "exibe", "exibir", "leia", "ler", "lista", "listar", "mostra", "mostrar", "obtem", "obtenha", "obter", "pesquisa", "pesquisar", "procura", "procurar", "recupera", "recuperar", "traduz", "traduzir", "veja", "ver", "verifica", "verificar"]),
    (It, &["calcola", "calcolare", "cerca", "cercare", "confronta", "confrontare", "consulta", "consultare", "contare", "controlla", "controllare", "dettagli", "elenca", "elencare", "leggere", "leggi", "lista", "mostra", "mostrare", "ottenere", "ottieni", "recupera", "recuperare", "ricerca", "stato", "traduci", "tradurre", "trova", "trovare", "vedi", "verifica", "verificare", "visualizza", "visualizzare"]),
    (Nl, &["bekijk", "bekijken", "bereken", "berekenen", "controleer", "controleren", "details", "haal", "haal op", "halen", "lees", "lezen", "lijst", "ophalen", "opzoeken", "overzicht", "raadpleeg", "raadplegen", "status", "tellen", "tonen", "toon", "vergelijk", "vergelijken", "vertaal", "vertalen", "vind", "vinden", "zoek", "zoek op", "zoeken"]),
];

/// A change wherever it stands in a name: with one of these, a name that also looks
/// something up ("get_or_create", "search_and_delete") is a change.
#[rustfmt::skip]
pub const CHANGE: Table = &[
    (En, &["add", "append", "approve", "assign", "buy", "cancel", "check in", "check out", "clear", "create", "delete", "destroy", "disable", "drop", "enable", "erase", "exec", "execute", "grant", "insert", "kill", "mark", "modify", "move", "notify", "pay", "press key", "publish", "purchase", "purge", "put", "remove", "rename", "replace", "reset", "restart", "revoke", "save", "send", "send keys", "set", "submit", "subscribe", "turn off", "turn on", "unlock", "unsubscribe", "update", "upload", "upsert", "wipe", "withdraw", "write"]),
    (De, &["aendern", "aktualisiere", "aktualisieren", "andern", "anlegen", "bearbeite", "bearbeiten", "bestelle", "bestellen", "bezahle", "bezahlen", "entferne", "entfernen", "erstelle", "erstellen", "fuege hinzu", "fuge hinzu", "hinzufuegen", "hinzufugen", "kaufe", "kaufen", "lege an", "loesche", "loeschen", "losche", "loschen", "schicke", "schicken", "sende", "senden", "setze", "setzen", "speichere", "speichern", "storniere", "stornieren", "uberweise", "uberweisen", "ueberweise", "ueberweisen", "verschiebe", "verschieben"]),
    (Fr, &["achete", "acheter", "ajoute", "ajouter", "annule", "annuler", "cree", "creer", "deplace", "deplacer", "efface", "effacer", "enregistre", "enregistrer", "envoie", "envoyer", "mets a jour", "mettre a jour", "modifie", "modifier", "paie", "paye", "payer", "publie", "publier", "remplace", "remplacer", "renomme", "renommer", "supprime", "supprimer"]),
    (Es, &["actualiza", "actualizar", "agrega", "agregar", "anade", "anadir", "borra", "borrar", "cancela", "cancelar", "comprar", "crea", "crear", "edita", "editar", "elimina", "eliminar", "envia", "enviar", "guarda", "guardar", "modifica", "modificar", "mover", "mueve", "paga", "pagar", "publicar", "reemplaza", "reemplazar"]),
    (Pt, &["adiciona", "adicionar", "altera", "alterar", "apaga", "apagar", "atualiza", "atualizar", "cancela", "cancelar", "comprar", "cria", "criar", "deleta", "deletar", "edita", "editar", "envia", "enviar", "exclui", "excluir", "grava", "gravar", "manda", "mandar", "modifica", "modificar", "move", "mover", "paga", "pagar", "publicar", "remove", "remover", "salva", "salvar"]),
    (It, &["acquista", "acquistare", "aggiorna", "aggiornare", "aggiungere", "aggiungi", "annulla", "annullare", "cancella", "cancellare", "comprare", "crea", "creare", "elimina", "eliminare", "invia", "inviare", "manda", "mandare", "modifica", "modificare", "paga", "pagare", "pubblicare", "rimuovere", "rimuovi", "salva", "salvare", "sposta", "spostare"]),
    (Nl, &["aanmaken", "annuleer", "annuleren", "bestel", "bestellen", "betaal", "betalen", "bewaar", "bewaren", "bewerk", "bewerken", "bijwerken", "koop", "kopen", "maak", "maken", "opslaan", "publiceer", "publiceren", "sla op", "sturen", "stuur", "toevoegen", "verplaats", "verplaatsen", "versturen", "verstuur", "verwijder", "verwijderen", "verzend", "verzenden", "voeg toe", "werk bij", "wijzig", "wijzigen", "wis", "wissen"]),
];

/// A verb that is also a noun: a change when it comes before any lookup word ("run_query",
/// "post_search_results"), a thing looked up after one ("get_workflow_run", "get_post").
/// Without a lookup word every name is a change anyway.
#[rustfmt::skip]
pub const VERB_OR_NOUN: Table = &[
    (En, &["book", "charge", "comment", "commit", "deploy", "edit", "email", "fill", "invite", "merge", "message", "order", "patch", "post", "reply", "run", "schedule", "share", "store", "transfer", "trash", "trigger", "tweet"]),
    (De, &["buche", "post", "teile"]),
    (Fr, &["commande", "partage", "poste"]),
    (Es, &["envio", "publica", "reserva"]),
    (Pt, &["compra", "envio", "publica", "reserva"]),
    (It, &["compra", "ordina", "pubblica"]),
    (Nl, &["boek", "deel", "post"]),
];

/// Paying, buying, moving money (PAYS): severe and lasting, NEVER, and it asks in every
/// mode. "order" and its kin are here: an order is a purchase until shown otherwise.
#[rustfmt::skip]
pub const PAYS: Table = &[
    (En, &["bank account", "bid", "bitcoin", "buy", "buying", "buys", "charge", "checkout", "credit card", "crypto", "cvc", "cvv", "deposit", "donate", "donation", "ether", "fund", "funds", "iban", "money", "order", "pay", "paying", "payment", "payments", "payout", "pays", "purchase", "purchases", "redeem", "refund", "refunds", "sell", "smart contract", "subscribe", "subscription", "trade", "transfer", "transfers", "wire", "withdraw", "withdrawal"]),
    (De, &["abbuchen", "abbuchung", "abo", "abonnement", "abonniere", "abonnieren", "bestelle", "bestellen", "bestellung", "bezahle", "bezahlen", "bezahlung", "einkauf", "einkaufen", "erstattung", "geld", "kasse", "kauf", "kaufe", "kaufen", "ruckerstattung", "rueckerstattung", "spende", "spenden", "uberweise", "uberweisen", "uberweisung", "ueberweise", "ueberweisen", "ueberweisung", "verkaufe", "verkaufen", "zahle", "zahlen", "zahlung", "zahlungen", "zur kasse"]),
    (Fr, &["abonne", "abonnement", "abonner", "achat", "achats", "achete", "acheter", "argent", "commande", "commander", "faire un don", "paie", "paiement", "paiements", "paye", "payer", "rembourse", "remboursement", "rembourser", "vendre", "vends", "vire", "virement", "virer"]),
    (Es, &["cobra", "cobrar", "compra", "comprar", "compras", "dinero", "donacion", "donar", "paga", "pagar", "pago", "pagos", "pedido", "reembolsa", "reembolsar", "reembolso", "suscribe", "suscribir", "suscripcion", "transferencia", "transferir", "transfiere", "vende", "vender"]),
    (Pt, &["cobrar", "compra", "comprar", "compras", "dinheiro", "doacao", "doar", "encomenda", "encomendar", "paga", "pagamento", "pagamentos", "pagar", "pedido", "reembolsa", "reembolsar", "reembolso", "transfere", "transferencia", "transferir", "vende", "vender"]),
    (It, &["abbonamento", "abbonati", "acquista", "acquistare", "acquisto", "addebita", "addebitare", "bonifico", "compra", "comprare", "denaro", "donare", "donazione", "ordine", "paga", "pagamenti", "pagamento", "pagare", "rimborsa", "rimborsare", "rimborso", "soldi", "trasferire", "trasferisci", "vendere", "vendi"]),
    (Nl, &["aankoop", "abonneer", "abonnement", "abonneren", "afrekenen", "bestel", "bestellen", "bestelling", "betaal", "betalen", "betaling", "betalingen", "donatie", "doneer", "doneren", "geld", "koop", "kopen", "maak over", "overboeken", "overboeking", "overmaken", "restitutie", "terugbetalen", "terugbetaling", "verkoop", "verkopen"]),
];

/// Speaking for the person to others, or making something public (SPEAKS): moderate and
/// lasting, a way out.
#[rustfmt::skip]
pub const SPEAKS: Table = &[
    (En, &["announce", "attendee", "attendees", "bcc", "broadcast", "cc", "comment", "comments", "dm", "email", "forward", "invite", "invitees", "mail", "make public", "mention", "merge", "merge request", "message", "messages", "notification", "notify", "post", "public", "publicly", "publish", "pull request", "push", "recipient", "recipients", "reply", "respond", "retweet", "review", "rsvp", "send", "share", "sharing", "sms", "tweet"]),
    (De, &["antworte", "antworten", "beitrag", "benachrichtige", "benachrichtigen", "einladen", "empfaenger", "empfanger", "kommentar", "kommentiere", "kommentieren", "lade ein", "leite weiter", "nachricht", "nachrichten", "oeffentlich", "offentlich", "poste", "posten", "schicke", "schicken", "sende", "senden", "teile", "teilen", "veroeffentliche", "veroeffentlichen", "veroffentliche", "veroffentlichen", "weiterleiten"]),
    (Fr, &["commentaire", "commente", "commenter", "courriel", "destinataire", "destinataires", "envoie", "envoyer", "inviter", "notifie", "notifier", "partage", "partager", "poste", "poster", "publie", "publier", "publique", "repondre", "reponds"]),
    (Es, &["comenta", "comentar", "comentario", "comparte", "compartir", "correo", "destinatario", "destinatarios", "envia", "enviar", "invita", "invitar", "manda", "mandar", "mensaje", "notifica", "notificar", "publica", "publicar", "publico", "reenvia", "reenviar", "responde", "responder"]),
    (Pt, &["comenta", "comentar", "comentario", "compartilha", "compartilhar", "convida", "convidar", "destinatario", "destinatarios", "encaminha", "encaminhar", "envia", "enviar", "manda", "mandar", "mensagem", "notifica", "notificar", "partilha", "partilhar", "publica", "publicar", "publico", "responde", "responder"]),
    (It, &["commenta", "commentare", "commento", "condividere", "condividi", "destinatari", "destinatario", "inoltra", "inoltrare", "invia", "inviare", "invita", "invitare", "manda", "mandare", "messaggio", "notifica", "notificare", "pubblica", "pubblicare", "pubblico", "rispondere", "rispondi"]),
    (Nl, &["antwoord", "antwoorden", "beantwoord", "bericht", "berichten", "deel", "delen", "doorsturen", "nodig uit", "ontvanger", "ontvangers", "openbaar", "post", "posten", "publiceer", "publiceren", "reactie", "sturen", "stuur", "stuur door", "uitnodigen", "versturen", "verstuur", "verzend", "verzenden"]),
];

/// Deleting: severe and lasting.
#[rustfmt::skip]
pub const DELETES: Table = &[
    (En, &["cancel", "clear", "decommission", "delete", "deprovision", "destroy", "discard", "drop", "empty trash", "erase", "nuke", "purge", "remove", "teardown", "terminate", "trash", "truncate", "uninstall", "unlink", "unpublish", "wipe"]),
    (De, &["entferne", "entfernen", "leere", "leeren", "loesche", "loeschen", "losche", "loschen", "papierkorb", "storniere", "stornieren", "vernichte", "vernichten", "verwerfen"]),
    (Fr, &["annule", "annuler", "corbeille", "detruire", "detruis", "efface", "effacer", "retire", "retirer", "supprime", "supprimer", "vide", "vider"]),
    (Es, &["borra", "borrar", "cancela", "cancelar", "destruir", "destruye", "elimina", "eliminar", "papelera", "quita", "quitar", "suprime", "suprimir", "vacia", "vaciar"]),
    (Pt, &["apaga", "apagar", "cancela", "cancelar", "deleta", "deletar", "destroi", "destruir", "elimina", "eliminar", "esvazia", "esvaziar", "exclui", "excluir", "lixeira", "remove", "remover"]),
    (It, &["annulla", "annullare", "cancella", "cancellare", "cestino", "distruggere", "distruggi", "elimina", "eliminare", "rimuovere", "rimuovi", "svuota", "svuotare"]),
    (Nl, &["annuleer", "annuleren", "leeg", "leegmaken", "prullenbak", "vernietig", "vernietigen", "verwijder", "verwijderen", "wis", "wissen"]),
];

/// Granting access or reach (GRANTS): collaborators, roles, members, permissions, tokens,
/// keys, secrets, webhooks, OAuth. Moderate and lasting.
#[rustfmt::skip]
pub const GRANTS: Table = &[
    (En, &["access", "acl", "admin", "administrator", "api key", "auth", "authentication", "authorize", "collaborator", "collaborators", "credential", "credentials", "grant", "guest", "guests", "key", "keys", "member", "members", "membership", "mfa", "oauth", "ownership", "password", "passwords", "permission", "permissions", "privacy", "private key", "revoke", "role", "roles", "scope", "scopes", "secret", "secret key", "secrets", "token", "tokens", "unlock", "webhook", "webhooks"]),
    (De, &["admin", "administrator", "aufschliesse", "aufschliessen", "berechtigung", "berechtigungen", "entsperre", "entsperren", "freigabe", "freigeben", "gewaehre", "gewaehren", "gewahre", "gewahren", "kennwort", "mitglied", "mitglieder", "passwort", "rolle", "rollen", "schluessel", "schlussel", "token", "webhook", "zugang", "zugriff"]),
    (Fr, &["acces", "accorde", "accorder", "administrateur", "autorisation", "autorisations", "cle", "cles", "collaborateur", "collaborateurs", "deverrouille", "deverrouiller", "jeton", "jetons", "membre", "membres", "mot de passe", "permission", "permissions", "revoque", "revoquer", "role", "roles", "secret", "webhook"]),
    (Es, &["acceso", "administrador", "clave", "claves", "colaborador", "colaboradores", "concede", "conceder", "contrasena", "desbloquea", "desbloquear", "miembro", "miembros", "otorga", "otorgar", "permiso", "permisos", "revoca", "revocar", "rol", "roles", "secreto", "token", "webhook"]),
    (Pt, &["acesso", "administrador", "chave", "chaves", "colaborador", "colaboradores", "concede", "conceder", "desbloquear", "desbloqueia", "destrancar", "membro", "membros", "permissao", "permissoes", "revoga", "revogar", "segredo", "senha", "token", "webhook"]),
    (It, &["accesso", "amministratore", "autorizzazione", "chiave", "chiavi", "collaboratore", "collaboratori", "concedere", "concedi", "membri", "membro", "password", "permessi", "permesso", "revoca", "revocare", "ruoli", "ruolo", "sblocca", "sbloccare", "segreto", "token", "webhook"]),
    (Nl, &["beheerder", "bijdrager", "bijdragers", "geheim", "intrekken", "leden", "lid", "machtiging", "ontgrendel", "ontgrendelen", "rechten", "rol", "rollen", "sleutel", "sleutels", "toegang", "token", "trek in", "verleen", "verlenen", "wachtwoord", "webhook"]),
];

/// Running code it is given (RUNS): execute, eval, a script, SQL, a shell. Moderate and
/// lasting.
#[rustfmt::skip]
pub const RUNS: Table = &[
    (En, &["bash", "cmd", "command", "commands", "deploy", "eval", "evaluate", "exec", "execute", "execution", "invoke", "javascript", "macro", "powershell", "python", "repl", "rerun", "run", "script", "scripts", "shell", "sql", "terminal", "trigger"]),
    (De, &["ausfuehren", "ausfuhren", "befehl", "fuehre aus", "fuhre aus", "skript"]),
    (Fr, &["executer", "lance", "lancer", "script"]),
    (Es, &["comando", "ejecuta", "ejecutar", "script"]),
    (Pt, &["comando", "executa", "executar", "roda", "rodar", "script"]),
    (It, &["comando", "esegui", "eseguire", "script"]),
    (Nl, &["draai", "draaien", "opdracht", "script", "uitvoeren", "voer uit"]),
];

/// Words that name the act in a tool's name but only what a value holds in its arguments:
/// a `message`, a `comment`, the `key` of a key-value pair, a `page_token`, a `dry_run`,
/// a `sort_order`, Notion's `command` (`update_properties`). Read in an argument, they say nothing about what the step does.
#[rustfmt::skip]
pub const HOLDS: Table = &[
    (En, &["charge", "command", "commands", "comment", "comments", "deploy", "email", "key", "keys", "mail", "message", "messages", "order", "post", "reply", "run", "subscription", "token", "tokens", "transfer", "trigger", "tweet"]),
    (De, &["beitrag", "bestellung", "kommentar", "nachricht", "nachrichten", "schluessel", "schlussel", "token"]),
    (Fr, &["cle", "cles", "commande", "commentaire", "courriel", "jeton", "jetons"]),
    (Es, &["clave", "claves", "comentario", "correo", "mensaje", "pedido", "token"]),
    (Pt, &["chave", "chaves", "comentario", "encomenda", "mensagem", "pedido", "token"]),
    (It, &["chiave", "chiavi", "commento", "messaggio", "ordine", "token"]),
    (Nl, &["bericht", "berichten", "bestelling", "reactie", "sleutel", "sleutels", "token"]),
];

/// An argument that says whom a step speaks or grants to: a recipient, a channel, a user,
/// an email address (`to`, `recipients`, `cc`, `channel`, `user_email`, `attendees`…). Its
/// values are names the person's message must carry.
#[rustfmt::skip]
pub const WHOM: Table = &[
    (En, &["addressee", "addressees", "assignee", "assignees", "attendee", "attendees", "bcc", "cc", "channel", "channels", "chat", "collaborator", "collaborators", "contact", "contacts", "email", "emails", "friend", "friends", "grantee", "group", "guest", "guests", "handle", "invitee", "invitees", "mail", "member", "members", "participant", "participants", "people", "person", "phone", "recipient", "recipients", "reviewer", "reviewers", "room", "to", "user", "username", "users"]),
    (De, &["an", "benutzer", "empfaenger", "empfanger", "gaeste", "gast", "gaste", "kanal", "kontakt", "mitglied", "mitglieder", "teilnehmer"]),
    (Fr, &["canal", "contact", "destinataire", "destinataires", "invite", "invites", "membre", "membres", "participant", "participants", "utilisateur"]),
    (Es, &["canal", "contacto", "destinatario", "destinatarios", "invitado", "invitados", "miembro", "miembros", "para", "participantes", "usuario"]),
    (Pt, &["canal", "contato", "convidado", "convidados", "destinatario", "destinatarios", "membro", "membros", "para", "participantes", "usuario"]),
    (It, &["canale", "contatto", "destinatari", "destinatario", "invitati", "membri", "membro", "partecipanti", "utente"]),
    (Nl, &["aan", "contact", "deelnemer", "deelnemers", "gebruiker", "gast", "gasten", "kanaal", "leden", "lid", "ontvanger", "ontvangers"]),
];

/// An argument that says what a step changes or deletes, by its name or title as a
/// person would say it (`title`, `file_name`, `path`, `event`, `page`, `summary`…), or by
/// an id (`file_id`).
#[rustfmt::skip]
pub const WHAT: Table = &[
    (En, &["car", "company", "doc", "document", "event", "file", "filename", "flight", "folder", "hotel", "id", "item", "list", "name", "note", "page", "path", "playlist", "product", "project", "repo", "repository", "restaurant", "sheet", "spreadsheet", "summary", "task", "title", "todo", "venue"]),
    (De, &["aufgabe", "datei", "dokument", "notiz", "ordner", "seite", "termin", "titel"]),
    (Fr, &["dossier", "evenement", "fichier", "nom", "tache", "titre"]),
    (Es, &["archivo", "carpeta", "documento", "evento", "nombre", "nota", "pagina", "tarea", "titulo"]),
    (Pt, &["arquivo", "documento", "evento", "ficheiro", "nome", "nota", "pasta", "tarefa", "titulo"]),
    (It, &["cartella", "documento", "evento", "nome", "nota", "pagina", "titolo"]),
    (Nl, &["bestand", "document", "map", "naam", "notitie", "pagina", "taak", "titel"]),
];

/// An argument that says when: a date the act is about ("create an event on 2024-05-19",
/// "reschedule it to May 20"). Read before `WHAT`, so `start_time` is a date, not a name.
#[rustfmt::skip]
pub const WHEN: Table = &[
    (En, &["date", "datetime", "day", "deadline", "due", "start", "time", "when"]),
    (De, &["beginn", "datum", "frist", "tag", "zeit"]),
    (Fr, &["date", "debut", "heure", "jour"]),
    (Es, &["dia", "fecha", "hora", "inicio"]),
    (Pt, &["data", "dia", "hora", "inicio", "prazo"]),
    (It, &["data", "giorno", "inizio", "ora", "scadenza"]),
    (Nl, &["begin", "datum", "dag", "tijd"]),
];

/// The months, January first, as each language writes them (folded): a date in a step's
/// arguments is named by "May 19", "19 May", "19. Mai", "19 de mayo" as well as
/// "2024-05-19".
#[rustfmt::skip]
pub const MONTHS: Table = &[
    (En, &["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]),
    (De, &["januar", "februar", "marz", "april", "mai", "juni", "juli", "august", "september", "oktober", "november", "dezember"]),
    (Fr, &["janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout", "septembre", "octobre", "novembre", "decembre"]),
    (Es, &["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"]),
    (Pt, &["janeiro", "fevereiro", "marco", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"]),
    (It, &["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"]),
    (Nl, &["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"]),
];
