//! One push's cryptographic work: the message encrypted for a device (RFC 8291, aes128gcm, a
//! fresh ECDH key pair and salt each time) and a VAPID token signed (RFC 8292, ES256), as the
//! push worker does for every delivery (`service::notify::push::delivery::seal`). The target: at
//! least 2,000 pushes a second on one core.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use keltis::service::notify::push::delivery::{seal, PushMessage};
use keltis::service::notify::push::PushKeys;

fn one_push(c: &mut Criterion) {
    let keys = PushKeys::from_private(&PushKeys::generate_private(), "mailto:bench@example.org")
        .expect("a key pair");
    // RFC 8291's device.
    let p256dh =
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
    let auth = "BTBZMqHH6r4Tts7J_aSIgg";
    let endpoint = reqwest::Url::parse("https://push.example.net/wpush/v2/abcdef").expect("url");
    let message = PushMessage {
        kind: "your_turn".into(),
        game_id: Some(1234),
        title: "Your turn in game 1234".into(),
        body: "Open the game".into(),
        url: "/games/1234".into(),
        tag: Some("game-1234".into()),
    };
    let mut group = c.benchmark_group("push");
    group.throughput(Throughput::Elements(1));
    group.bench_function("encrypt and sign one push", |b| {
        b.iter(|| seal(&keys, &endpoint, p256dh, auth, &message).expect("sealed"))
    });
    group.finish();
}

criterion_group!(benches, one_push);
criterion_main!(benches);
