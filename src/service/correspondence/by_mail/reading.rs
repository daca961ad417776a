//! The player's own words in a reply: the text before the quoted email and the signature, as the
//! common mail programs write them in English, French and German (`On ... wrote:`,
//! `Le ... a écrit :`, `Am ... schrieb ...:`, Outlook's header block and rule, `>` lines, `-- `,
//! "Sent from my phone").

/// "On <date>, <sender> wrote:" and its French and German forms (sometimes wrapped onto a second
/// line by the mail program): its first line...
fn opens_attribution(line: &str) -> bool {
    let lower = line.trim().to_lowercase();
    lower.starts_with("on ") || lower.starts_with("le ") || lower.starts_with("am ")
}

/// ...and its last.
fn closes_attribution(line: &str) -> bool {
    let l = line.trim().to_lowercase();
    l.ends_with("wrote:")
        || l.ends_with("a écrit :")
        || l.ends_with("a écrit:")
        || (l.ends_with(':') && l.contains("schrieb"))
}

/// Lines that end what the player wrote: what follows is quoted or a signature.
fn ends_the_reply(line: &str, next: Option<&str>) -> bool {
    let line = line.trim();
    let lower = line.to_lowercase();
    if line == "--" || line.starts_with("-----") || line.starts_with("________") {
        return true;
    }
    if opens_attribution(line) && (closes_attribution(line) || next.is_some_and(closes_attribution))
    {
        return true;
    }
    // Outlook's header block: "From: ..." then "Sent: ..." (and translations).
    let outlook_from = ["from:", "de :", "de:", "von:"]
        .iter()
        .any(|p| lower.starts_with(p));
    let outlook_sent = |l: &str| {
        let l = l.trim().to_lowercase();
        [
            "sent:",
            "envoyé :",
            "envoyé:",
            "gesendet:",
            "date:",
            "datum:",
        ]
        .iter()
        .any(|p| l.starts_with(p))
    };
    if outlook_from && next.is_some_and(outlook_sent) {
        return true;
    }
    [
        "sent from my",
        "envoyé de mon",
        "von meinem",
        "get outlook for",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
}

/// The part of a reply's text the player wrote (quoted lines and everything after the quote or
/// signature removed).
pub fn own_words(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = Vec::new();
    let mut skip_next = false;
    for (i, line) in lines.iter().enumerate() {
        if std::mem::take(&mut skip_next) {
            continue;
        }
        if ends_the_reply(line, lines.get(i + 1).copied()) {
            // Bottom-posting: the attribution, then `>` lines, then the player's words.
            let quote_follows = lines[i + 1..]
                .iter()
                .map(|l| l.trim())
                .find(|l| !l.is_empty() && !closes_attribution(l))
                .is_some_and(|l| l.starts_with('>'));
            if quote_follows && opens_attribution(line) {
                // An attribution wrapped onto a second line goes with it.
                skip_next = !closes_attribution(line);
                continue;
            }
            break;
        }
        if line.trim_start().starts_with('>') {
            continue;
        }
        kept.push(line.trim());
    }
    kept.join("\n").trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::own_words;

    #[test]
    fn quotes_and_signatures_are_cut_in_three_languages() {
        let cases = [
            "3 then deck\n\nOn Tue, 24 Nov 2026 at 10:00, Keltis <keltis@keltis.test> wrote:\n> Your turn\n> 3. Lay blue 4",
            "3 then deck\r\n\r\nOn Tue, 24 Nov 2026 at 10:00 Keltis <\r\nplay+1.0.5.abc@keltis.test> wrote:\r\n> Your turn",
            "3 then deck\n\nLe mar. 24 nov. 2026 à 10:00, Keltis <keltis@keltis.test> a écrit :\n> C'est à vous",
            "3 then deck\n\nAm Di., 24. Nov. 2026 um 10:00 Uhr schrieb Keltis <keltis@keltis.test>:\n> Du bist dran",
            "3 then deck\n-- \nAnna Example\n+49 30 1234",
            "3 then deck\n\nSent from my iPhone",
            "3 then deck\nVon meinem iPhone gesendet\n",
            "3 then deck\n________________________________\nFrom: Keltis <keltis@keltis.test>\nSent: Tuesday",
            "3 then deck\n\nDe : Keltis <keltis@keltis.test>\nEnvoyé : mardi 24 novembre 2026",
            "3 then deck\n-----Ursprüngliche Nachricht-----\nVon: Keltis",
            "> Your turn in game 4\n> 3. Lay blue 4\n3 then deck\n",
            "On 26/11/2026 09:00, Keltis wrote:\n> Your turn\n> 1. lay blue 4\n\n3 then deck\n\n-- \nHugo",
        ];
        for case in cases {
            assert_eq!(own_words(case), "3 then deck", "{case:?}");
        }
        assert_eq!(own_words("Hello\n\n2\ndeck"), "Hello\n\n2\ndeck");
    }
}
