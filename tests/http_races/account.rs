//! Races of one account's caps and "once" rules: webhooks, push devices, chat, notes,
//! two-factor, deletion, password resets.

use super::*;

/// Webhooks: an account has at most 10 endpoints.
pub(super) fn webhooks_at_most_ten(db: Db) {
    let site = Site::start(db, |c| c.webhooks_allow_private = true);
    for round in 0..ROUNDS {
        let p = site.a().register(&format!("wh{round}"));
        let answers = site.race(14, |i, s| {
            s.post(
                "/api/v1/me/webhooks",
                Some(&p.token),
                json!({"url": format!("http://127.0.0.1:9/hook/{i}"), "kinds": ["your_turn"]}),
            )
        });
        documented("post", "/api/v1/me/webhooks", &answers);
        assert_eq!(with_status(&answers, 201), 10, "round {round}");
        assert_eq!(codes(&answers, 409), vec!["too_many_webhooks"; 4]);
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM webhooks WHERE user_id = {}",
            p.id
        ));
        assert_eq!(rows, 10, "round {round}");
    }
}

/// A push subscription at `endpoint`, with the keys of a real device.
fn subscription(device: &Value, endpoint: &str) -> Value {
    let mut s = device.clone();
    s["endpoint"] = json!(endpoint);
    s
}

fn push_device(site: &Site) -> support::push::PushDevice {
    let key = site.a().get("/api/v1/push/vapid-public-key", None).json()["public_key"]
        .as_str()
        .expect("the server's VAPID key")
        .to_string();
    support::push::PushDevice::start(&key, &[])
}

/// Push: an account has at most 10 devices.
pub(super) fn push_devices_at_most_ten(db: Db) {
    let site = Site::start(db, |c| c.push_allow_private = true);
    let device = push_device(&site);
    for round in 0..ROUNDS {
        let p = site.a().register(&format!("pd{round}"));
        let answers = site.race(13, |i, s| {
            let endpoint = format!("http://127.0.0.1:9/push/{round}/{i}");
            s.post(
                "/api/v1/me/push-subscriptions",
                Some(&p.token),
                subscription(&device.subscription, &endpoint),
            )
        });
        documented("post", "/api/v1/me/push-subscriptions", &answers);
        assert_eq!(with_status(&answers, 201), 10, "round {round}");
        assert_eq!(codes(&answers, 409), vec!["too_many_push_devices"; 3]);
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = {}",
            p.id
        ));
        assert_eq!(rows, 10, "round {round}");
    }
}

/// Push: an endpoint registered twice at once is one device (the second updates it).
pub(super) fn push_endpoint_registered_twice_is_one_device(db: Db) {
    let site = Site::start(db, |c| c.push_allow_private = true);
    let device = push_device(&site);
    for round in 0..ROUNDS {
        let p = site.a().register(&format!("pe{round}"));
        let endpoint = format!("http://127.0.0.1:9/push/twice/{round}");
        let answers = site.race(2, |_, s| {
            s.post(
                "/api/v1/me/push-subscriptions",
                Some(&p.token),
                subscription(&device.subscription, &endpoint),
            )
        });
        documented("post", "/api/v1/me/push-subscriptions", &answers);
        assert_eq!(with_status(&answers, 201), 2, "round {round}");
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM push_subscriptions WHERE endpoint = '{endpoint}'"
        ));
        assert_eq!(rows, 1, "round {round}");
    }
}

/// Chat: a player writes at most 10 messages a minute.
pub(super) fn chat_at_most_ten_messages_a_minute(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let [p, q] = [0, 1].map(|i| site.a().register(&format!("ch{round}{i}")));
        let id = site.a().started_game("keltis", &[p.clone(), q]);
        let answers = site.race(12, |i, s| {
            s.post(
                &format!("/api/v1/games/{id}/chat"),
                Some(&p.token),
                json!({"text": format!("message {i}")}),
            )
        });
        documented("post", "/api/v1/games/{id}/chat", &answers);
        assert_eq!(with_status(&answers, 201), 10, "round {round}");
        assert_eq!(codes(&answers, 429), vec!["rate_limited"; 2]);
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM chat_messages WHERE user_id = {}",
            p.id
        ));
        assert_eq!(rows, 10, "round {round}");
    }
}

/// Chat: read marks sent at once never leave a lower mark standing.
pub(super) fn chat_read_mark_never_goes_back(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let [p, q] = [0, 1].map(|i| site.a().register(&format!("cr{round}{i}")));
        let id = site.a().started_game("keltis", &[p.clone(), q.clone()]);
        let ids: Vec<i64> = (0..6)
            .map(|i| {
                let a = site.a().post(
                    &format!("/api/v1/games/{id}/chat"),
                    Some(&q.token),
                    json!({"text": format!("line {i}")}),
                );
                assert_eq!(a.status, 201, "{}", a.text);
                a.json()["id"].as_i64().expect("message id")
            })
            .collect();
        let answers = site.race(ids.len(), |i, s| {
            s.send(
                s.client
                    .put(s.url(&format!("/api/v1/games/{id}/chat/read")))
                    .bearer_auth(&p.token)
                    .json(&json!({"last_read": ids[i]})),
            )
        });
        documented("put", "/api/v1/games/{id}/chat/read", &answers);
        assert_eq!(with_status(&answers, 204), ids.len(), "round {round}");
        let newest = ids.iter().max().expect("messages");
        let kept = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM chat_reads WHERE game_id = {id} AND user_id = {} AND last_read = {newest}",
            p.id
        ));
        assert_eq!(kept, 1, "round {round}: the highest mark stands");
    }
}

/// Notes: a note written twice at once is one note, one of the two texts.
pub(super) fn note_written_twice_is_one_note(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let [p, q] = [0, 1].map(|i| site.a().register(&format!("nt{round}{i}")));
        let id = site.a().started_game("keltis", &[p.clone(), q]);
        let answers = site.race(2, |i, s| {
            s.send(
                s.client
                    .put(s.url(&format!("/api/v1/games/{id}/note")))
                    .bearer_auth(&p.token)
                    .json(&json!({"text": format!("plan {i}")})),
            )
        });
        documented("put", "/api/v1/games/{id}/note", &answers);
        assert_eq!(with_status(&answers, 200), 2, "round {round}");
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM game_notes WHERE game_id = {id} AND user_id = {}",
            p.id
        ));
        assert_eq!(rows, 1, "round {round}");
        let text = site
            .a()
            .get(&format!("/api/v1/games/{id}/note"), Some(&p.token))
            .json()["text"]
            .clone();
        assert!(text == "plan 0" || text == "plan 1", "{text}");
    }
}

/// Two-factor: started twice at once, one enrolment waits for its confirmation.
pub(super) fn two_factor_started_twice_is_one_enrolment(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let p = site.a().register(&format!("tf{round}"));
        let answers = site.race(2, |_, s| {
            s.post("/api/v1/me/two-factor", Some(&p.token), json!({}))
        });
        documented("post", "/api/v1/me/two-factor", &answers);
        assert_eq!(with_status(&answers, 201), 2, "round {round}");
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM two_factor WHERE user_id = {} AND confirmed_at IS NULL",
            p.id
        ));
        assert_eq!(rows, 1, "round {round}");
    }
}

/// Accounts: deleted twice at once, the account is deleted once: the other request is answered
/// as one after it (401), and one placeholder name stands everywhere.
pub(super) fn account_deleted_once(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let [gone, stays] = [0, 1].map(|i| site.a().register(&format!("ad{round}{i}")));
        let id = site
            .a()
            .started_game("keltis", &[stays.clone(), gone.clone()]);
        let answers = site.race(2, |_, s| {
            s.post(
                "/api/v1/me/delete",
                Some(&gone.token),
                json!({"password": "correct horse"}),
            )
        });
        documented("post", "/api/v1/me/delete", &answers);
        assert_eq!(with_status(&answers, 204), 1, "round {round}");
        assert_eq!(codes(&answers, 401), vec!["unauthorized"]);
        let names = support::database::texts_at(
            &site.a().database_url,
            &format!("SELECT name AS t FROM users WHERE id = {}", gone.id),
        );
        let placeholder = names.first().expect("the account's row").clone();
        assert!(placeholder.starts_with("deleted-"), "{placeholder}");
        let view = site.a().game(id, &stays);
        let seated: Vec<&str> = view["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .filter_map(|s| s["user"].as_str())
            .collect();
        assert!(seated.contains(&placeholder.as_str()), "{seated:?}");
        let log = serde_json::to_string(&site.a().events(id, &stays)).expect("events");
        let others = log.matches("deleted-").count();
        let this_one = log.matches(placeholder.as_str()).count();
        assert_eq!(
            others, this_one,
            "round {round}: one placeholder in the log"
        );
    }
}

/// Password resets: two links of one account used at once: one sets the password, the other is
/// told its link is spent (the two had deadlocked on each other's rows).
/// Two instances (or one SQLite server) that mail through `sink`.
fn mailing_site(db: Db, sink: &support::smtp::SmtpSink) -> Site {
    let port = sink.port;
    Site::start(db, |c| {
        c.smtp_host = Some("127.0.0.1".into());
        c.smtp_port = Some(port);
        c.smtp_tls = keltis::service::notify::mail::delivery::SmtpTls::None;
        c.mail_from = "Keltis <keltis@keltis.test>".into();
        c.public_url = support::mail::PUBLIC.into();
        c.mail_interval_ms = 50;
    })
}

pub(super) fn password_reset_links_used_once(db: Db) {
    let sink = support::smtp::SmtpSink::start();
    let site = mailing_site(db, &sink);
    for round in 0..ROUNDS {
        let p = support::mail::register(site.a(), &format!("rs{round}"), "en");
        let address = support::mail::confirmed_address(site.a(), &sink, &p);
        for _ in 0..2 {
            let a = site
                .a()
                .post("/api/v1/auth/password-reset", None, json!({"user": p.name}));
            assert_eq!(a.status, 202, "{}", a.text);
        }
        let prefix = format!("{}/reset-password?token=", support::mail::PUBLIC);
        let mut tokens = Vec::new();
        for _ in 0..400 {
            tokens = sink
                .to(&address)
                .iter()
                .filter(|m| m["text"].as_str().is_some_and(|t| t.contains(&prefix)))
                .map(|m| {
                    let url = support::mail::link(site.a(), m, &prefix);
                    url.split_once("token=").expect("a token").1.to_string()
                })
                .collect();
            if tokens.len() == 2 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        assert_eq!(tokens.len(), 2, "round {round}: two links mailed");
        let answers = site.race(2, |i, s| {
            s.post(
                "/api/v1/auth/password-reset/confirm",
                None,
                json!({"token": tokens[i], "new_password": format!("new horse {i}")}),
            )
        });
        documented("post", "/api/v1/auth/password-reset/confirm", &answers);
        assert_eq!(with_status(&answers, 204), 1, "round {round}");
        assert_eq!(codes(&answers, 422), vec!["invalid_link"]);
    }
}

/// Password-reset requests handled so far by every instance of `site` (they are handled after
/// their 202 answer).
fn resets_handled(site: &Site) -> u64 {
    site.servers
        .iter()
        .map(|s| {
            let metrics = s.get("/metrics", None).text;
            metrics
                .lines()
                .find_map(|l| l.strip_prefix("keltis_password_reset_requests_handled_total "))
                .and_then(|n| n.trim().parse::<f64>().ok())
                .expect("the metric of reset requests handled") as u64
        })
        .sum()
}

/// At most three reset links an hour go to one account, whatever arrives at once.
pub(super) fn password_reset_mails_at_most_three_an_hour(db: Db) {
    let sink = support::smtp::SmtpSink::start();
    let site = mailing_site(db, &sink);
    for round in 0..ROUNDS {
        let p = support::mail::register(site.a(), &format!("rc{round}"), "en");
        support::mail::confirmed_address(site.a(), &sink, &p);
        let before = resets_handled(&site);
        let answers = site.race(5, |_, s| {
            s.post("/api/v1/auth/password-reset", None, json!({"user": p.name}))
        });
        documented("post", "/api/v1/auth/password-reset", &answers);
        assert_eq!(with_status(&answers, 202), 5, "round {round}");
        // Handled after the answer: waited for by the instances' own count, not by time.
        let mut handled = before;
        for _ in 0..600 {
            handled = resets_handled(&site);
            if handled >= before + 5 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        assert_eq!(
            handled,
            before + 5,
            "round {round}: the requests were handled"
        );
        let links = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM password_resets WHERE user_id = {}",
            p.id
        ));
        assert_eq!(links, 3, "round {round}");
    }
}

/// Registration: one name, one account, whoever asks for it at the same moment.
pub(super) fn name_registered_once(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let name = format!("twin{round}");
        let answers = site.race(4, |i, s| {
            s.post(
                "/api/v1/auth/register",
                None,
                json!({"name": name, "password": format!("a long password {i}")}),
            )
        });
        documented("post", "/api/v1/auth/register", &answers);
        assert_eq!(with_status(&answers, 201), 1, "round {round}");
        assert_eq!(codes(&answers, 409), vec!["name_taken"; 3], "round {round}");
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM users WHERE name = '{name}'"
        ));
        assert_eq!(rows, 1, "round {round}");
    }
}

/// Vacation: started once, whatever arrives at once, with every clock of the player's stopped
/// once.
pub(super) fn vacation_started_once(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let players = users(site.a(), &format!("va{round}_"), 2);
        for _ in 0..2 {
            site.a().started_with(
                json!({"variant": "keltis-card", "players": 2,
                       "time_control": {"type": "per_turn", "seconds": 86_400}}),
                &players,
            );
        }
        let p = &players[0];
        let answers = site.race(4, |_, s| {
            s.post("/api/v1/me/vacation", Some(&p.token), json!({}))
        });
        documented("post", "/api/v1/me/vacation", &answers);
        assert_eq!(with_status(&answers, 200), 1, "round {round}");
        assert_eq!(
            codes(&answers, 409),
            vec!["already_on_vacation"; 3],
            "round {round}"
        );
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM vacations WHERE user_id = {}",
            p.id
        ));
        assert_eq!(rows, 1, "round {round}");
    }
}
