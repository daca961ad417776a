//! The reply address of a "your turn" email: `play+<game>.<seat>.<version>.<mac>@example.org`.
//! It names the game, the seat and the turn (the game's version when the email was written), and
//! carries an HMAC of them and of the seat's player with the server's key (80 bits, in hex): it
//! cannot be guessed or moved to another seat, game or turn, and is short enough for an address
//! (at most 64 characters before the `@`).

use subtle::ConstantTimeEq;

use crate::service::accounts::sessions::TokenKeys;

/// Hex characters of the MAC kept in the address (80 bits).
const MAC_HEX: usize = 20;

/// What a reply address stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnToken {
    pub game_id: i64,
    pub seat: u8,
    /// The game's version when the email offering the moves was written.
    pub version: i64,
}

/// The server's inbound address, split at the `@` (`play`, `keltis.example.org`).
#[derive(Clone, Debug)]
pub struct ReplyAddress {
    local: String,
    domain: String,
}

impl ReplyAddress {
    /// From the `--reply-address` setting (`play@keltis.example.org`).
    pub fn parse(address: &str) -> Result<ReplyAddress, String> {
        let address = address.trim();
        let parsed: lettre::Address = address
            .parse()
            .map_err(|e| format!("the reply address {address:?}: {e}"))?;
        let local = parsed.user().to_ascii_lowercase();
        if local.contains('+') || local.len() > 20 {
            return Err(format!(
                "the reply address {address:?}: its part before the @ has no '+' and at most 20 characters"
            ));
        }
        Ok(ReplyAddress {
            local,
            domain: parsed.domain().to_ascii_lowercase(),
        })
    }

    fn mac(keys: &TokenKeys, turn: &TurnToken, user_id: i64) -> String {
        let mut mac = keys.mac_hex(&format!(
            "keltis-reply:{}:{}:{}:{user_id}",
            turn.game_id, turn.seat, turn.version
        ));
        mac.truncate(MAC_HEX);
        mac
    }

    /// The address a reply about `turn` goes to, for the seat's player `user_id`.
    pub fn for_turn(&self, keys: &TokenKeys, turn: &TurnToken, user_id: i64) -> String {
        format!(
            "{}+{}.{}.{}.{}@{}",
            self.local,
            turn.game_id,
            turn.seat,
            turn.version,
            Self::mac(keys, turn, user_id),
            self.domain
        )
    }

    /// The turn an address stands for, if it is one of ours in form (its MAC is checked with
    /// [`ReplyAddress::verify`] once the seat's player is known).
    pub fn read(&self, address: &str) -> Option<(TurnToken, String)> {
        let address = address.trim().trim_start_matches('<').trim_end_matches('>');
        let (local, domain) = address.rsplit_once('@')?;
        if !domain.eq_ignore_ascii_case(&self.domain) {
            return None;
        }
        let (base, tag) = local.split_once('+')?;
        if !base.eq_ignore_ascii_case(&self.local) {
            return None;
        }
        let mut parts = tag.split('.');
        let turn = TurnToken {
            game_id: parts.next()?.parse().ok()?,
            seat: parts.next()?.parse().ok()?,
            version: parts.next()?.parse().ok()?,
        };
        let mac = parts.next()?.to_ascii_lowercase();
        if parts.next().is_some() || mac.len() != MAC_HEX {
            return None;
        }
        Some((turn, mac))
    }

    /// Whether `mac` is the one of `turn` for `user_id` (compared in constant time).
    pub fn verify(keys: &TokenKeys, turn: &TurnToken, user_id: i64, mac: &str) -> bool {
        Self::mac(keys, turn, user_id)
            .as_bytes()
            .ct_eq(mac.as_bytes())
            .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_names_its_turn_and_nothing_else_passes() {
        let keys = TokenKeys::new(b"a secret of thirty-two characters!!");
        let reply = ReplyAddress::parse("Play@Keltis.Example.org").unwrap();
        let turn = TurnToken {
            game_id: 912,
            seat: 1,
            version: 57,
        };
        let address = reply.for_turn(&keys, &turn, 7);
        assert!(address.starts_with("play+912.1.57."), "{address}");
        assert!(address.split('@').next().unwrap().len() <= 64);
        let (read, mac) = reply.read(&address.to_uppercase()).unwrap();
        assert_eq!(read, turn);
        assert!(ReplyAddress::verify(&keys, &read, 7, &mac));
        // Another player, seat, turn or game: the MAC no longer fits.
        assert!(!ReplyAddress::verify(&keys, &read, 8, &mac));
        for other in [
            TurnToken { seat: 0, ..turn },
            TurnToken {
                version: 58,
                ..turn
            },
            TurnToken {
                game_id: 913,
                ..turn
            },
        ] {
            assert!(!ReplyAddress::verify(&keys, &other, 7, &mac));
        }
        assert!(reply.read("play+912.1.57@keltis.example.org").is_none());
        assert!(reply
            .read(&address.replace("keltis.example.org", "evil.org"))
            .is_none());
        assert!(ReplyAddress::parse("a+b@example.org").is_err());
    }
}
