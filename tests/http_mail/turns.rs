//! "Your turn" once per turn, for the right player, in their language; "game started"; and no email
//! names a card its reader could not see.

use super::*;

/// A confirmed address gets "your turn" once per turn, for the right player, in their language,
/// with both parts, the game's link and the unsubscribe headers; an unconfirmed address gets only
/// its confirmation link; a refused move sends nothing; the unsubscribe link works without login.
fn a_turn_sends_one_email_to_the_next_player(db: Db) {
    let sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let anna = register(&s, "anna", "fr-FR,fr;q=0.9,en;q=0.5");
    let ben = register(&s, "ben", "de-DE");
    let carl = register(&s, "carl", "en");
    let anna_at = confirmed_address(&s, &sink, &anna);
    let ben_at = confirmed_address(&s, &sink, &ben);
    // Carl's address is never confirmed: it gets the link and nothing else.
    put(
        &s,
        "/api/v1/me/email",
        &carl,
        json!({"email": "carl@example.org"}),
    );
    let carls_game = s.create(&carl, json!({"variant": "keltis-card", "players": 2}));
    let invite = s.post(
        &format!("/api/v1/games/{carls_game}/invites"),
        Some(&carl.token),
        json!({"user": "anna"}),
    );
    assert_eq!(invite.status, 200, "{}", invite.text);
    let anna_mail = sink.wait_for(&anna_at, 2);
    assert!(
        !with_subject(&anna_mail, "carl").is_empty(),
        "the invitation"
    );
    let id = game(&s, &[anna.clone(), ben.clone()]);
    let players = [anna.clone(), ben.clone()];
    let first = s.game(id, &anna)["state"]["to_act"].as_u64().unwrap() as usize;
    let (waiter, waiter_at, first_at) = if first == 0 {
        (&ben, &ben_at, &anna_at)
    } else {
        (&anna, &anna_at, &ben_at)
    };
    // "Game started" for both, and "your turn" for the first seat.
    sink.wait_for(&anna_at, 3);
    sink.wait_for(&ben_at, 2);
    let first_mail = sink.wait_for(first_at, if first == 0 { 4 } else { 3 });
    assert!(!with_subject(&first_mail, &format!("{id}")).is_empty());
    let before = sink.to(waiter_at).len();
    // A refused move (stale version) sends nothing.
    let stale = s.decide(id, &players[first], 0, &json!({"type": "draw_deck"}));
    assert_eq!(stale.status, 409, "{}", stale.text);
    s.finish_turn(id, &players);
    let got = sink.wait_for(waiter_at, before + 1);
    std::thread::sleep(std::time::Duration::from_millis(400));
    let got_now = sink.to(waiter_at);
    assert_eq!(got_now.len(), got.len(), "one email for the turn");
    let email = got.last().unwrap();
    let french = waiter.name == "anna";
    let subject = email["headers"]["Subject"].as_str().unwrap();
    if french {
        assert!(subject.starts_with("À vous de jouer"), "{subject}");
    } else {
        assert!(subject.starts_with("Du bist am Zug"), "{subject}");
    }
    let headers = &email["headers"];
    assert!(headers["Message-ID"]
        .as_str()
        .unwrap()
        .ends_with("@keltis.test>"));
    assert!(headers["Date"].is_string());
    assert_eq!(
        headers["List-Unsubscribe-Post"],
        "List-Unsubscribe=One-Click"
    );
    let game_link = format!("{PUBLIC}/games/{id}");
    assert!(email["text"].as_str().unwrap().contains(&game_link));
    // The HTML's template escapes every value, `/` included (`&#x2f;`), which browsers read back.
    let html = email["html"].as_str().unwrap().replace("&#x2f;", "/");
    assert!(html.contains(&format!("href=\"{game_link}\"")), "{html}");
    // The link opens the game's page in a browser (the web client), not the API's JSON.
    let page = s.get(&format!("/games/{id}"), None);
    assert_eq!(page.status, 200);
    assert!(page.headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    assert_eq!(email["to"], json!([waiter_at]));
    // Carl, unconfirmed: the confirmation link only.
    let carl_mail = sink.to("carl@example.org");
    assert_eq!(carl_mail.len(), 1, "{carl_mail:?}");
    assert!(carl_mail[0]["text"]
        .as_str()
        .unwrap()
        .contains("/api/v1/email/verify?token="));
    // Anna's invitation came (she is confirmed).
    let anna_mail = sink.wait_for(&anna_at, 4);
    assert!(
        !with_subject(&anna_mail, "carl").is_empty(),
        "the invitation"
    );

    // One-click unsubscribe, without logging in: no more "your turn" for the waiter.
    let unsubscribe = headers["List-Unsubscribe"].as_str().unwrap();
    let url = unsubscribe
        .trim_matches(|c| c == '<' || c == '>')
        .replacen(PUBLIC, &s.base, 1);
    // The pages of the link speak the waiter's language (anna French, ben German).
    let (button, done) = if waiter.name == "anna" {
        ("Ne plus recevoir ces e-mails", "Désabonnement effectué")
    } else {
        ("Diese E-Mails nicht mehr erhalten", "Abbestellt")
    };
    let form = s.send(s.client.get(&url));
    assert_eq!(form.status, 200, "{}", form.text);
    assert!(form.text.contains(button), "{}", form.text);
    let a = s.send(
        s.client
            .post(&url)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body("List-Unsubscribe=One-Click"),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    assert!(a.text.contains(done), "{}", a.text);
    let settings = s.get("/api/v1/me/email", Some(&waiter.token)).json();
    assert_eq!(settings["preferences"]["your_turn"], false);
    assert_eq!(
        settings["moves_by_reply_offered"], false,
        "no reply address here"
    );
    let count = sink.to(waiter_at).len();
    s.finish_turn(id, &players); // the waiter's own turn
    s.finish_turn(id, &players); // the mover's: the waiter's turn again, no email
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(sink.to(waiter_at).len(), count, "unsubscribed");
    let notices = s
        .get("/api/v1/me/notifications", Some(&waiter.token))
        .json();
    let skipped = notices
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["notice"]["kind"] == "your_turn" && n["status"] == "skipped")
        .cloned();
    assert!(skipped.is_some(), "{notices}");
}

/// "Game started" says whose turn it is, and shows the deadline only to the player to act (the
/// others would read it as theirs).
fn game_started_names_the_player_to_act(db: Db) {
    let sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let players: Vec<User> = ["hedi", "ines"]
        .iter()
        .map(|n| register(&s, n, "en"))
        .collect();
    let addresses: Vec<String> = players
        .iter()
        .map(|p| confirmed_address(&s, &sink, p))
        .collect();
    let id = s.started_with(
        json!({"variant": "keltis-card", "players": 2, "time_control": {"type": "per_turn", "seconds": 86400}}),
        &players,
    );
    let first = s.game(id, &players[0])["state"]["to_act"].as_u64().unwrap() as usize;
    for (i, address) in addresses.iter().enumerate() {
        let mail = sink.wait_for(address, 2);
        let started = with_subject(&mail, "has started");
        assert_eq!(started.len(), 1, "{mail:?}");
        let text = started[0]["text"].as_str().unwrap();
        if i == first {
            assert!(text.contains("It is your turn."), "{text}");
            assert!(text.contains("Deadline: "), "{text}");
        } else {
            assert!(
                text.contains(&format!("To play: {}", players[first].name)),
                "{text}"
            );
            assert!(!text.contains("Deadline"), "{text}");
        }
    }
}

/// The cards an email names, counted: a colour word followed by a value (`∎` for end cards).
fn cards_named(text: &str) -> std::collections::HashMap<(String, String), usize> {
    const COLORS: [&str; 6] = ["green", "yellow", "brown", "blue", "pink", "gray"];
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '∎'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut named = std::collections::HashMap::new();
    for pair in words.windows(2) {
        let value_like = pair[1] == "∎" || pair[1].chars().all(|c| c.is_ascii_digit());
        if COLORS.contains(&pair[0]) && value_like {
            *named
                .entry((pair[0].to_string(), pair[1].to_string()))
                .or_insert(0) += 1;
        }
    }
    named
}

/// The cards shown face up by the first `count` decisions of a record (laid or discarded).
fn cards_shown(record: &Value, count: usize) -> std::collections::HashMap<(String, String), usize> {
    let mut shown = std::collections::HashMap::new();
    for d in record["decisions"].as_array().unwrap().iter().take(count) {
        let card = &d["decision"]["card"];
        if let Some(color) = card["color"].as_str() {
            let value = match card["value"].as_u64() {
                Some(v) => v.to_string(),
                None => "∎".to_string(),
            };
            *shown.entry((color.to_string(), value)).or_insert(0) += 1;
        }
    }
    shown
}

/// A whole game played with email on: every "your turn" message is read when it arrives (the game
/// waits for it), and after the game each is checked against the record: it names no card more
/// often than the decisions before it had shown face up, so no card of another seat's hand and no
/// card of the deck ever appears.
fn no_email_names_a_card_its_reader_could_not_see(db: Db) {
    let sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let players = [register(&s, "hana", "en"), register(&s, "hugo", "en")];
    let addresses: Vec<String> = players
        .iter()
        .map(|p| confirmed_address(&s, &sink, p))
        .collect();
    let id = s.started_with(json!({"variant": "keltis", "players": 2}), &players);
    let your_turns = |address: &str| received_with_subject(&sink, address, "Your turn");
    // Up to 30 s of real time for delivery (5 s ran out once in CI, on PostgreSQL under load).
    let wait_for_turns = |address: &str, n: usize| {
        for _ in 0..1200 {
            let got = your_turns(address);
            if got.len() >= n {
                return got;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        panic!("{address} never got {n} 'your turn' emails");
    };
    // (the email, how many decisions had been made when it was sent)
    let mut read: Vec<(Value, usize)> = Vec::new();
    let mut expected = [0usize; 2];
    let mut decisions = 0usize;
    let mut to_act = s.game(id, &players[0])["state"]["to_act"].as_u64().unwrap() as usize;
    expected[to_act] = 1;
    read.push((wait_for_turns(&addresses[to_act], 1)[0].clone(), 0));
    loop {
        let me = s.game(id, &players[to_act]);
        let legal: Vec<&Value> = me["state"]["legal_decisions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["type"] != "resign")
            .collect();
        // Vary the choice so that the game lays, discards and draws from piles, but draw from
        // the deck four times in five: the deck runs out and the game ends.
        let deck = legal.iter().find(|d| d["type"] == "draw_deck");
        let d = match deck {
            Some(d) if !decisions.is_multiple_of(5) => (*d).clone(),
            _ => legal[(decisions * 7 + 3) % legal.len()].clone(),
        };
        assert!(decisions < 3000, "the game goes on and on");
        let a = s.decide(id, &players[to_act], me["version"].as_i64().unwrap(), &d);
        assert_eq!(a.status, 200, "{}", a.text);
        decisions += 1;
        let view = s.game(id, &players[0]);
        if view["status"] == "over" {
            break;
        }
        let next = view["state"]["to_act"].as_u64().unwrap() as usize;
        if next != to_act {
            expected[next] += 1;
            let got = wait_for_turns(&addresses[next], expected[next]);
            read.push((got[expected[next] - 1].clone(), decisions));
            to_act = next;
        }
    }
    assert!(read.len() > 20, "a whole game: {} emails", read.len());
    let record = s.get(
        &format!("/api/v1/games/{id}/record"),
        Some(&players[0].token),
    );
    assert_eq!(record.status, 200, "{}", record.text);
    let record = record.json();
    assert_eq!(record["decisions"].as_array().unwrap().len(), decisions);
    let mut named_at_all = 0;
    for (email, count) in &read {
        let shown = cards_shown(&record, *count);
        for part in ["text", "html"] {
            let body = email[part].as_str().unwrap();
            for (card, times) in cards_named(body) {
                named_at_all += times;
                let allowed = shown.get(&card).copied().unwrap_or(0);
                assert!(
                    times <= allowed,
                    "{card:?} named {times} times, shown {allowed} times by {count} decisions: {body}"
                );
            }
        }
    }
    assert!(named_at_all > 0, "the emails name the cards laid");
}

mail_tests_on_both_databases!(
    a_turn_sends_one_email_to_the_next_player,
    game_started_names_the_player_to_act,
    no_email_names_a_card_its_reader_could_not_see,
);
