# Alles, was der Keltis-Server sagt, auf Deutsch: E-Mails, Push-Nachrichten, die Seiten hinter den
# Links der E-Mails und der Web-Client. Dieselben Nachrichten wie en.ftl (siehe dort).

## Gemeinsam: Farben und Karten

# Die Farben nach den Kennungen der Regeln.

color-green = grün
color-yellow = gelb
color-brown = braun
color-blue = blau
color-pink = rosa
color-gray = grau
card = { $color } { $value }
card-end = { $color } Ende

## Das Spiel in Worten, ein Wortschatz für E-Mail, Push, Zugliste, Befehlszeile und API
## (der Web-Client bekommt diese Nachrichten unter denselben Namen).
## Felder, und Figuren nach Größe und Ort (in einer Möglichkeit) oder nach Größe (in dem, was getan wurde):
space-path = Pfad { $color }, Feld { $step }
space-grid = Reihe { $row }, Spalte { $column }
move-pawn-big-start = die große Figur vom Start
move-pawn-start = eine Figur vom Start
move-pawn-big-on = die große Figur auf { $space }
move-pawn-on = die Figur auf { $space }
did-pawn-big = die große Figur
did-pawn = eine Figur
# Nach dem bestimmten Artikel: schwache Endung, außer bei rosa ($color_id, $path_id: die Kennung der Farbe).
# Eine Möglichkeit des Zuges; die Zuggrammatik (service/words) liest jede zurück.
move-lay = { $card } auslegen
move-lay-pawn = { $card } auslegen, { $pawn } nach { $to }
move-lay-path = { $card } auf den { $path_id ->
        [pink] rosa
       *[other] { $path }en
    } Pfad legen
move-discard = { $card } abwerfen
move-step = freier Schritt: { $pawn } nach { $to }
move-skip = auslassen
move-discard-row = die letzte Karte deiner { $color_id ->
        [pink] rosa
       *[other] { $color }en
    } Reihe abwerfen
move-draw-deck = vom Nachziehstapel ziehen
move-draw-pile = vom { $color_id ->
        [pink] rosa
       *[other] { $color }en
    } Ablagestapel ziehen
move-take-stone = Wunschstein { $value } mit { $card } und { $card2 } nehmen
move-pass = passen
# Was jemand getan hat. Ziehen vom Stapel nennt nie die Karte.
did-lay = { $who } hat { $card } ausgelegt
did-lay-path = { $who } hat { $card } auf den { $path_id ->
        [pink] rosa
       *[other] { $path }en
    } Pfad gelegt
did-lay-pawn = { $who } hat { $card } ausgelegt, { $pawn } nach { $to }
did-discard = { $who } hat { $card } abgeworfen
did-step = { $who } hat { $pawn } nach { $to } gezogen
did-skip = { $who } hat auf den Zug verzichtet
did-draw-deck = { $who } hat vom Stapel gezogen
did-draw-pile = { $who } hat vom { $color_id ->
        [pink] rosa
       *[other] { $color }en
    } Ablagestapel genommen
did-discard-row = { $who } hat aus der { $color_id ->
        [pink] rosa
       *[other] { $color }en
    } Reihe abgeworfen
did-take-stone = { $who } hat einen Wunschstein genommen
did-pass = { $who } hat gepasst
did-resign = { $who } hat aufgegeben
did-time-out = { $who } hat die Zeit überschritten


## E-Mails

mail-your-turn = Du bist am Zug in Partie { $id } ({ $variant })
mail-reminder = { $hours ->
    [one] Noch eine Stunde für deinen Zug in Partie { $id }
   *[other] Noch { $hours } Stunden für deinen Zug in Partie { $id }
}
mail-invitation = { $by } lädt dich zu einer Partie { $variant } ein (Partie { $id })
mail-rematch = { $by } bietet eine Revanche der Partie { $id } ({ $variant }) an: nimm sie auf der Seite der Partie an oder lehne sie ab
mail-started = Partie { $id } ({ $variant }) hat begonnen
mail-over = Partie { $id } ({ $variant }) ist beendet
mail-aborted = Partie { $id } ({ $variant }) wurde abgebrochen: ihr erster Zug wurde nie gespielt
mail-digest-chat = { $count ->
    [one] 1 neue Nachricht an deinen Tischen
   *[other] { $count } neue Nachrichten an deinen Tischen
}
mail-muted-subject = Ein Moderator hat dich bis { $until } stummgeschaltet
mail-suspended-subject = Ein Moderator hat dein Konto bis { $until } gesperrt
mail-moderated-reason = Angegebener Grund: { $reason }
mail-digest = { $count ->
    [one] Eine Partie wartet auf dich
   *[other] { $count } Partien warten auf dich
}
mail-verify-subject = Bestätige deine E-Mail-Adresse
mail-verify-body = Bitte bestätige, dass diese Adresse dir gehört, damit der Keltis-Server dir über deine Partien schreiben darf:
mail-reset-subject = Wähle ein neues Passwort
mail-reset-body = Jemand (hoffentlich du) möchte ein neues Passwort für dein Keltis-Konto wählen. Der Link unten gilt einmal, eine Stunde lang.
mail-reset-ignore = Wenn du das nicht warst, ignoriere diese E-Mail: dein Passwort bleibt, wie es ist.
mail-reset-link = Neues Passwort wählen
mail-password-changed-subject = Dein Passwort wurde geändert
mail-password-changed-body = Das Passwort deines Keltis-Kontos wurde gerade geändert, und deine anderen Geräte wurden abgemeldet.
mail-password-changed-link = Warst du das nicht, wähle hier ein neues Passwort
mail-two-factor-on-subject = Die Anmeldung in zwei Schritten ist an
mail-two-factor-on-body = Dein Keltis-Konto verlangt bei der Anmeldung jetzt einen Code deiner Authenticator-App (oder einen Wiederherstellungscode). Bewahre deine Wiederherstellungscodes sicher auf.
mail-two-factor-off-subject = Die Anmeldung in zwei Schritten ist aus
mail-two-factor-off-body = Dein Keltis-Konto verlangt bei der Anmeldung keinen Code mehr.
mail-two-factor-link = Warst du das nicht, ändere dein Passwort und prüfe deine Einstellungen
mail-account-deleted-subject = Dein Keltis-Konto wurde gelöscht
mail-account-deleted-body = Dein Keltis-Konto wurde wie gewünscht gelöscht: Deine laufenden Partien wurden aufgegeben, und deine Adresse, Einstellungen, Sitzungen, Tokens, Webhooks, Geräte und Benachrichtigungen wurden gelöscht.
mail-account-deleted-kept = Beendete Partien behalten ihre Züge und Ergebnisse, unter einem neutralen Namen statt deinem. Dies ist die letzte E-Mail von uns.
mail-account-deleted-link = Keltis
mail-players = Spieler
mail-to-play = Am Zug: { $name }
mail-you-play = Du bist am Zug.
mail-deadline = Frist
mail-since = Seit deinem letzten Zug
mail-winners = Gewonnen von
mail-scores = Punkte
mail-open = Zur Partie
mail-unsubscribe = Keine E-Mails dieser Art mehr

## Züge per Antwort auf die E-Mail: die Wahl in der „Du bist dran“-E-Mail, und die Antwort
mail-hand = Deine Hand: { $cards }
mail-choices = Deine Möglichkeiten:
mail-reply-how = Antworte auf diese E-Mail mit der Nummer deiner Wahl, zum Beispiel „3“, oder mit dem ganzen Zug, zum Beispiel „3 dann Nachziehstapel“. Worte gehen auch: „lege“, „wirf ab“ oder „ziehe“ mit einer Karte deiner Hand oder einer Farbe, „groß“ für die große Figur, „Nachziehstapel“, „auslassen“ oder die ganze Zeile einer Möglichkeit.
mail-reply-plan-how = Auch deinen nächsten Zug, wenn du willst: in einer eigenen Zeile „plan:“ und die Schritte dieses Zugs in Worten („lege“ oder „wirf ab“ mit einer Karte deiner Hand, dann „Nachziehstapel“ oder den Ablagestapel einer Farbe); er wird gespielt, wenn du dran bist, sofern jeder Schritt noch möglich ist.
mail-reply-played-subject = Partie { $id } ({ $variant }): dein Zug ist gespielt
mail-reply-problem-subject = Partie { $id } ({ $variant }): deine Antwort wurde nicht gespielt
mail-reply-played = Aus deiner E-Mail gespielt:
mail-reply-turn-goes-on = Dein Zug geht weiter: antworte auf diese E-Mail mit deiner nächsten Wahl.
mail-reply-problem-stale = Deine Antwort galt einem früheren Zug dieser Partie: nichts wurde gespielt. So steht die Partie jetzt.
mail-reply-problem-no_move = In deiner Antwort stand kein Zug.
mail-reply-problem-unreadable = „{ $said }“ ist als Zug nicht lesbar.
mail-reply-problem-not_a_choice = „{ $said }“ gehört jetzt nicht zu deinen Möglichkeiten.
mail-reply-problem-ambiguous = „{ $said }“ passt zu mehreren Möglichkeiten: sag, welche, mit ihrer Nummer.
mail-reply-problem-turn_over = „{ $said }“ wurde nicht gespielt: dein Zug war vorbei.
mail-reply-problem-game_over = Die Partie ist vorbei: nichts wurde gespielt.
mail-reply-problem-other = „{ $said }“ kann jetzt nicht gespielt werden.
mail-reply-plan-kept = Dein Plan für deinen nächsten Zug ist gespeichert: „{ $said }“. Er wird gespielt, wenn du dran bist, sofern jeder Schritt noch möglich ist.
mail-reply-plan-reply_not_played = Dein Plan „{ $said }“ wurde nicht gespeichert: der Zug davor wurde nicht gespielt.
mail-reply-plan-plan_on_your_turn = Dein Plan „{ $said }“ wurde nicht gespeichert: dein Zug geht weiter, spiele ihn zuerst.
mail-reply-plan-no_next_turn = Dein Plan „{ $said }“ wurde nicht gespeichert: du hast in dieser Partie keinen Zug mehr.
mail-reply-plan-plan_not_playable = Dein Plan „{ $said }“ wurde nicht gespeichert: er wäre in deinem nächsten Zug, wie er beginnen wird, nicht spielbar.
mail-reply-plan-unreadable = Dein Plan „{ $said }“ wurde nicht gespeichert: er lässt sich nicht als Züge deines nächsten Zugs lesen.

## Push-Nachrichten

push-your-turn = Du bist am Zug in Partie { $id }
push-reminder = Deine Zeit in Partie { $id } läuft ab
push-invitation = { $by } lädt dich zu Partie { $id } ein
push-rematch = { $by } bietet eine Revanche der Partie { $id } an
push-started = Partie { $id } hat begonnen
push-over = Partie { $id } ist beendet
push-open = Partie öffnen
event-entered = Du bist für { $name } angemeldet
event-round = Runde { $round } von { $name }: deine Partie ist bereit
event-bye = Runde { $round } von { $name }: du hast ein Freilos
event-over = { $name } ist beendet: du bist { $place }. von { $of }
event-cancelled = { $name } wurde abgesagt
event-open = Turnier öffnen
push-test-title = Keltis
push-test-body = Benachrichtigungen erreichen dieses Gerät.

## Seiten hinter den Links der E-Mails

page-confirmed = E-Mail-Adresse bestätigt
page-confirmed-body = Keltis schreibt dir dorthin über deine Partien.
page-unsubscribe = Abbestellen
page-unsubscribe-button = Diese E-Mails nicht mehr erhalten
page-unsubscribed = Abbestellt
page-unsubscribed-body = Du bekommst keine E-Mails dieser Art mehr: { $kind ->
        [your_turn] du bist am Zug
        [deadline_reminder] Fristerinnerungen
        [invitation] Einladungen
        [game_started] begonnene Partien
        [game_over] beendete Partien
       *[digest] Zusammenfassungen
    }.

## Der Web-Client

web-which-pawn = Mehrere Figuren können dorthin: wähle eine.
web-deadline = Frist: { $when } (noch { $left })
web-time-left = Restzeit
web-away = im Urlaub
web-replay = Partie nachspielen
web-invite = Einladen
web-invited = { $name } ist eingeladen.
web-time-control = Bedenkzeit
web-tc-none = keine
web-tc-day = 1 Tag pro Zug
web-tc-three_days = 3 Tage pro Zug
web-tc-fischer = 3 Tage + 1 Tag pro Zug (höchstens 7)
web-record-of = Partie Nr. { $id }
web-step-of = Zug { $step } von { $steps }
web-steps = Züge
web-the-deal = Das Austeilen
web-seen-by = Sicht von
web-spectator = Zuschauer
web-hand-of = Hand von { $name }
web-moves = Züge
web-review = Analyse
web-review-ask = Analyse anfordern
web-review-waiting = Die Analyse ist unterwegs.
web-review-none = Für diese Partie hat noch niemand eine Analyse angefordert.
web-review-failed = Diese Partie konnte nicht analysiert werden.
web-review-next-mistake = Nächster Fehler
web-review-accuracy = Genauigkeit
web-review-accuracy-note = Genauigkeit: 100 ist jedes Mal die beste Wahl, 0 das, was zufälliges Wählen ergäbe, in Punkten des Endabstands.
web-review-inaccuracies = Ungenauigkeiten
web-review-mistakes = Fehler
web-review-blunders = Patzer
web-review-luck = Glück beim Ziehen
web-review-graph = Die Gewinnchancen jedes Spielers im Lauf der Partie, bei seinen eigenen Zügen
web-review-cost = { $points } Punkte und { $chance } % Gewinnchance verschenkt
web-review-better = besser: { $move }
web-mark-inaccuracy = Ungenauigkeit
web-mark-mistake = Fehler
web-mark-blunder = Patzer
web-accuracy-line = { $accuracy } in { $games ->
    [one] einer analysierten Partie
   *[other] { $games } analysierten Partien
}
web-name = Name
web-password = Passwort
web-login = Anmelden
web-register = Registrieren
web-logout = Abmelden
web-lobby = Lobby
web-my-games = Meine Partien
web-open-games = Offene Partien
web-new-game = Neue Partie
web-variant = Variante
web-players = Spieler
web-invite-only = Nur auf Einladung
web-rated = Gewertet
web-opponent-bot = Bots als Gegner
web-none = keine
web-create = Anlegen
web-join = Beitreten
web-open = Öffnen
web-nothing = Noch nichts hier.
web-status-open = wartet auf Spieler
web-status-active = läuft
web-status-over = beendet
web-status-cancelled = abgesagt
web-status-aborted = abgebrochen
web-your-turn = Du bist am Zug
web-turn-of = { $name } ist am Zug
web-game-over = Partie beendet
web-final-ranking = Endstand
web-invitation = Einladung
web-left = noch { $left }
web-next-game = Nächste Partie, die auf dich wartet: #{ $id }
web-offline = Du bist offline: Was du siehst, kann veraltet sein, und Züge warten, bis du zurück bist.
web-push-enable = Auf diesem Gerät benachrichtigen
web-push-on = Benachrichtigungen sind auf diesem Gerät an.
web-push-denied = Benachrichtigungen sind in diesem Browser blockiert.
web-hand = Deine Hand
web-draw-pile = { $n ->
    [one] Nachziehstapel: eine Karte
   *[other] Nachziehstapel: { $n } Karten
}
web-discard-piles = Ablagestapel
web-board = Spielplan
web-rows = Reihen
web-stones = Wunschsteine
web-score-tile-points = Plättchenpunkte
web-choose = Wähle deinen Zug
web-choose-card = Wähle eine Karte aus deiner Hand
web-resign = Aufgeben
web-confirm-resign = Diese Partie aufgeben?
web-stale = Jemand war schneller: die Partie wurde neu geladen.
web-winner = Sieger
web-score = Punkte
web-seat = Platz
web-retired = hat die Partie verlassen
web-hand-size = { $n ->
    [one] eine Karte
   *[other] { $n } Karten
}
web-big-pawn = groß
web-end-card = Ende
web-back = Zurück zur Lobby
web-live = Live
web-green = { color-green }
web-yellow = { color-yellow }
web-brown = { color-brown }
web-blue = { color-blue }
web-pink = { color-pink }
web-gray = { color-gray }
web-error = Etwas ist schiefgegangen: { $message }

# Die Einstellungen.
web-settings = Einstellungen
web-forgot-password = Passwort vergessen?
web-reset-title = Neues Passwort wählen
web-reset-intro = Gib deinen Benutzernamen oder deine bestätigte E-Mail-Adresse an: ein Link zum Wählen eines neuen Passworts wird an diese Adresse geschickt.
web-reset-who = Benutzername oder E-Mail-Adresse
web-reset-ask = Link senden
web-reset-asked = Wenn ein Konto mit bestätigter Adresse passt, ist ein Link unterwegs. Er gilt einmal, eine Stunde lang.
web-reset-save = Neues Passwort speichern
web-reset-done = Dein neues Passwort ist gespeichert, und alle Geräte wurden abgemeldet.
web-new-password = Neues Passwort
web-new-password-again = Neues Passwort, noch einmal
web-password-mismatch = Die beiden Passwörter sind verschieden.
web-password-title = Passwort
web-current-password = Aktuelles Passwort
web-revoke-tokens = Auch meine API-Tokens widerrufen
web-change-password = Passwort ändern
web-password-changed = Passwort geändert: deine anderen Geräte wurden abgemeldet.
web-export-title = Deine Daten
web-export-intro = Alles, was der Server über dich speichert (Konto, Einstellungen, Wertungen, Partien, wie du sie gesehen hast, Benachrichtigungen), als eine JSON-Datei.
web-export = Meine Daten herunterladen
web-export-done = Deine Daten sind heruntergeladen.
web-oauth-title = Eine App bittet um Zugriff
web-oauth-asks = „{ $app }“ möchte dein Keltis-Konto nutzen. Sie kann dann:
web-oauth-scope-read = deine Partien, ihre Züge und Protokolle sowie dein Konto sehen
web-oauth-scope-play = Partien anlegen und ihnen beitreten, deine Züge spielen und für dich aufgeben
web-oauth-scope-email = deine E-Mail-Adresse und deine Benachrichtigungen sehen und ändern
web-oauth-scope-webhooks = deine Webhooks sehen, hinzufügen und entfernen
web-oauth-scope-push = die Geräte, die deine Benachrichtigungen bekommen, sehen, hinzufügen und entfernen
web-oauth-scope-organize = Partien für andere Spieler anlegen, die dir ihr Token gegeben haben
web-oauth-redirect = Wenn du es erlaubst, geht es zurück zu { $host }.
web-oauth-revocable = Sie sieht nie dein Passwort. Du kannst ihr den Zugriff jederzeit in den Einstellungen (API-Tokens) entziehen.
web-oauth-allow = Erlauben
web-oauth-refuse = Ablehnen
web-oauth-invalid = Diese Anfrage kann nicht beantwortet werden:
web-token-app = App, Antwort an { $host }
web-chat = Tischgespräch
web-chat-empty = Noch keine Nachrichten.
web-chat-say = Nachricht an den Tisch
web-chat-send = Senden
web-note = Meine Notiz
web-note-hint = Nur du siehst diese Notiz.
web-note-save = Notiz speichern
web-note-saved = Notiz gespeichert.
web-block = Blockieren
web-unblock = Nicht mehr blockieren
web-blocked-now = Du hast { $name } blockiert: Diese Person kann dich nicht mehr einladen oder deinen Partien beitreten, und ihr seht die Nachrichten des anderen nicht mehr.
web-unblocked-now = Du blockierst { $name } nicht mehr.
web-unread-messages = { $n ->
    [one] 1 neue Nachricht
   *[other] { $n } neue Nachrichten
}
web-follow = Folgen
web-unfollow = Nicht mehr folgen
web-followed-now = Du folgst { $name }: Lade diese Person ein, wenn du eine Partie erstellst.
web-unfollowed-now = Du folgst { $name } nicht mehr.
web-invite-friends = Spieler einladen, denen du folgst
web-report = Melden
web-report-reason = Warum meldest du das?
web-report-send = Meldung senden
web-report-sent = Danke: Die Moderatoren sehen es sich an.
web-timed-out-games = { $n ->
    [one] Hat 1 Partie durch Zeitüberschreitung aufgegeben.
   *[other] Hat { $n } Partien durch Zeitüberschreitung aufgegeben.
}
web-moderation = Moderation
web-moderators-only = Diese Seite ist für Moderatoren.
web-open-reports = Offene Meldungen
web-audit-log = Was Moderatoren getan haben
web-moderation-reason = Grund (wird protokolliert)
web-mute-day = Einen Tag stummschalten
web-suspend-week = Eine Woche sperren
web-dismiss = Verwerfen
web-bot-account-title = Konto eines Bots
web-bot-account-intro = Gehört dieses Konto einem Programm, das über die API spielt? Markiere es als Bot: Es erscheint dann überall als Bot, nimmt Einladungen sofort an und wird mit seiner Bot-Markierung gewertet. Nur ein Konto, das noch nie an einer Partie saß, kann ein Bot werden, und es wird nie wieder das Konto eines Menschen.
web-bot-account-sure = Ich verstehe: Dieses Konto ist endgültig ein Bot
web-bot-account-mark = Dieses Konto zum Bot machen
web-bot-account-is = Dieses Konto ist ein Bot: Es spielt über die API und erscheint überall als Bot.
web-delete-title = Mein Konto löschen
web-delete-intro = Das Löschen deines Kontos kann nicht rückgängig gemacht werden. Du verlässt deine offenen Partien und gibst deine laufenden Partien auf (bei 3 oder 4 Spielern übernimmt ein Bot deinen Platz); deine Adresse, Einstellungen, Geräte, Tokens, Webhooks, Benachrichtigungen und Wertungen werden gelöscht. Beendete Partien behalten ihre Züge und Ergebnisse unter einem neutralen Namen statt deinem, und 30 Tage lang kann niemand deinen Namen nehmen. Lade vorher deine Daten herunter, wenn du sie behalten möchtest.
web-delete-sure = Ich verstehe: Mein Konto wird endgültig gelöscht
web-delete-account = Mein Konto löschen
web-account-deleted = Dein Konto ist gelöscht. Auf Wiedersehen!
web-two-factor-title = Anmeldung in zwei Schritten
web-two-factor-off = Aus: du meldest dich nur mit deinem Passwort an.
web-two-factor-on = { $n ->
    [one] An. Ein Wiederherstellungscode ist übrig.
   *[other] An. { $n } Wiederherstellungscodes sind übrig.
}
web-two-factor-start = Anmeldung in zwei Schritten einschalten
web-two-factor-scan = Scanne diesen Code mit einer Authenticator-App, oder tippe das Geheimnis dort ein:
web-two-factor-secret = Geheimnis
web-two-factor-code = Code aus der App
web-two-factor-confirm = Bestätigen und einschalten
web-two-factor-codes = Deine Wiederherstellungscodes: jeder meldet dich einmal ohne deine App an. Bewahre sie sicher auf; sie werden nicht wieder gezeigt.
web-two-factor-disable-code = Code aus der App, oder ein Wiederherstellungscode
web-two-factor-disable = Anmeldung in zwei Schritten ausschalten
web-login-code = Code aus deiner Authenticator-App (oder ein Wiederherstellungscode)
web-email = E-Mail
web-email-address = E-Mail-Adresse
web-save = Speichern
web-saved = Gespeichert.
web-email-none = Keine Adresse: Du bekommst keine E-Mails.
web-email-unverified = Noch nicht bestätigt: Öffne den Link, der an diese Adresse ging.
web-email-verified = Bestätigt.
web-email-bounced = Der Mailserver hat diese Adresse abgelehnt: Es geht nichts mehr an sie. Speichere sie erneut, um es wieder zu versuchen.
web-notices = Benachrichtigungen
web-notice = Nachricht
web-channel-email = E-Mail
web-channel-push = Push
web-kind-your_turn = Du bist am Zug
web-kind-deadline_reminder = Fristerinnerungen
web-kind-invitation = Einladungen
web-kind-game_started = Partie begonnen
web-kind-game_over = Partie beendet
web-digest = E-Mails für deinen Zug
web-moves-by-reply = Per Antwort spielen: die „Du bist dran“-E-Mail nennt deine Hand und deine Möglichkeiten, und deine Antwort ist dein Zug
web-digest-off = Eine pro Zug
web-digest-every = { $hours ->
    [one] Eine Zusammenfassung jede Stunde
   *[other] Eine Zusammenfassung alle { $hours } Stunden
}
web-notice-language = Sprache der E-Mails und Benachrichtigungen
web-vacation = Urlaub
web-vacation-left = Übrig in diesem Jahr: { $left } (von { $days } Tagen)
web-vacation-until = Im Urlaub bis { $when }.
web-vacation-start = Urlaub beginnen
web-vacation-stop = Urlaub beenden
web-devices = Angemeldete Geräte
web-device-unknown = Unbekanntes Gerät
web-device-this = dieses Gerät
web-last-used = zuletzt benutzt { $when }
web-last-push = letzte Benachrichtigung { $when }
web-sign-out = Abmelden
web-sign-out-all = Überall abmelden
web-tokens = API-Token
web-token-name = Name des Tokens
web-scope-read = Lesen
web-scope-play = Spielen
web-scope-email = E-Mail-Einstellungen
web-scope-webhooks = Webhooks
web-scope-push = Push-Geräte
web-scope-organize = Organisieren: Partien für andere Spieler in großer Zahl
web-token-create = Token erstellen
web-token-new = Kopiere dieses Token jetzt: Es wird nicht noch einmal gezeigt.
web-revoke = Widerrufen
web-revoked = widerrufen
web-push-devices = Geräte mit Benachrichtigungen
web-push-test = Test senden
web-remove = Entfernen

# Der Tisch in Worten: Felder, Figuren, Plättchen, Reihen, Punkte.
web-pawn-of = eine Figur von { $name }
web-pawn-big-of = die große Figur von { $name }
web-at-start = { $n ->
    [one] eine Figur am Start
   *[other] { $n } Figuren am Start
}
web-goal-count = Figuren im Zielbereich: { $n } von 5
web-pawns = Figuren
web-tiles = Plättchen
web-tile-points = { $n ->
    [one] 1 Punkt
   *[other] { $n } Punkte
}
web-tile-points-any = Punkte (1 bis 9)
web-tile-stone = Wunschstein
web-tile-stone-color = Wunschstein { $color }
web-tile-clover = Kleeblatt: ein freier Schritt
web-tile-discard = Ablageplättchen: eine Karte ablegen
web-stone-pile = Wunschsteine { $color }: noch { $n }
web-direction-open = offen
web-direction-ascending = aufsteigend
web-direction-descending = absteigend
web-score-parts = Punkte nach Teilen
web-paths = Pfade
web-gray-path = Grauer Pfad
# Das Formular der Lobby.
web-variant-keltis = Keltis
web-variant-neue-wege = Keltis: Neue Wege, neue Ziele
web-variant-keltis-card = Keltis Das Kartenspiel
web-bot-for-seat = Bot auf Platz { $seat }
web-bot-twice = Ein Bot nimmt nur einen Platz: wähle einen anderen.
web-game-title = { $variant } · { $players }
web-log = Bisherige Züge
web-since-your-turn = Seit deinem letzten Zug

# Spieler, Profile und Ranglisten.
web-leaderboards = Ranglisten
web-leaderboard-of = Rangliste: { $variant }
web-leaderboard-empty = Noch keine festen Wertungen: Eine Wertung erscheint hier nach einigen gewerteten Partien.
web-rank = Platz
web-player = Spieler
web-rating = Wertung
web-rated-games = Gewertete Partien
web-rating-chart = Verlauf
web-rating-history = Verlauf über { $n } Partien: von { $from } auf { $to }
web-provisional = vorläufig
web-ratings = Wertungen
web-record = Bilanz
web-record-line = { $played } gespielt, { $won } gewonnen, { $lost } verloren, { $drawn } unentschieden
web-member-since = Dabei seit { $when }
web-current-games = Laufende Partien
web-finished-games = Beendete Partien
web-bot = Bot
# The record viewer's steps.
web-first = Anfang
web-previous = Zurück
web-next = Weiter
web-last = Ende

# Spielanleitung.
web-help = Spielanleitung
web-help-title = So spielt man { $variant }
web-help-rows = Jede ausgelegte Karte kommt in deine eigene Reihe ihrer Farbe. Eine Reihe steigt oder fällt: Die erste Karte, die sich von der ersten der Reihe unterscheidet, legt die Richtung endgültig fest, und gleiche Werte passen immer.
web-help-rows-example = Zwei Reihen: Die blaue steigt (nach 3 und 3 hat die 6 entschieden), die rosa fällt.
web-help-turn = In deinem Zug spielst du eine Karte aus der Hand: Du legst sie in ihre Reihe, was eine Figur bewegt, oder wirfst sie offen auf den Stapel ihrer Farbe ab. Dann ziehst du wieder auf acht Karten nach, vom Nachziehstapel oder von einem Ablagestapel (nicht eine Karte, die du in diesem Zug abgeworfen hast).
web-help-keltis-goal = Bewege deine fünf Figuren (eine große, vier kleine) auf den fünf farbigen Pfaden des Spielplans, sammle Wunschsteine und Punkte und habe am Ende die höchste Summe.
web-help-keltis-board = Eine Karte einer Farbe bewegt deine Figur auf dem Pfad dieser Farbe um ein Feld, egal welcher Wert; hast du dort keine Figur, verlässt eine deiner Figuren den Start dafür. Nie zwei deiner Figuren auf einem Pfad.
web-help-keltis-tiles = Plättchen auf den Pfaden: Punkte zählen sofort, ein Kleeblatt gibt einer deiner Figuren einen freien Schritt, ein Wunschstein gehört dir. Steht deine Figur auf dem letzten Stein eines Pfads, gibt eine Karte dieser Farbe einer anderen Figur einen freien Schritt.
web-help-keltis-end = Das Spiel endet sofort, wenn die fünfte Figur den Zielbereich (die oberen drei Reihen) erreicht, oder wenn die letzte Karte des Nachziehstapels gezogen wird.
web-help-keltis-score = Jede Figur zählt den Wert ihres Steins (die große doppelt, auch negative), dazu Plättchenpunkte, dazu Wunschsteine: keiner -4, einer -3, zwei 2, drei 3, vier 6, fünf oder mehr 10.
web-help-neue-wege-goal = Dieselben Karten und Reihen, auf einem Plan mit verzweigten Wegen: Bringe deine Figuren vom Start über Felder aller Farben hinauf zu den Zielreihen.
web-help-neue-wege-board = Um eine Karte einer Farbe auszulegen, ziehst du eine deiner Figuren (vom Start oder einem Feld) auf ein nächstes Feld dieser Farbe oder auf ein Jokerfeld, das jede Farbe nimmt. Beliebig viele Figuren dürfen sich ein Feld teilen. Eine Karte, die keine Figur bewegt, kann nur abgeworfen werden.
web-help-neue-wege-tiles = Plättchen: Punkte (2 oder 3), ein Kleeblatt für einen freien Schritt, ein Wunschstein einer Farbe und „Karte ablegen“ (aus der Hand, dann ziehst du eine mehr nach, oder die letzte Karte einer deiner Reihen). Stapelfelder geben den obersten Wunschstein ihres Stapels.
web-help-neue-wege-score = Figuren zählen den Wert ihrer Reihe (die große doppelt), dazu Plättchenpunkte, dazu Wunschsteine nach Anzahl der Farben (keine -4 bis fünf Farben 10) und 10 mehr für jede Farbe, die du dreimal hast.
web-help-card-goal = Ein Spiel für zwei: Lege lange Reihen in fünf Farben, sammle Wunschsteine und habe am Ende die höchste Summe.
web-help-card-gray = Graue Karten kommen auf eine deiner Farbreihen, deren letzte Karte denselben Wert hat, oder in beliebiger Folge auf deine graue Reihe, ein Punkt je Karte. Eine Endkarte schließt die Reihe ihrer Farbe: Nur die andere Endkarte dieser Farbe darf noch folgen.
web-help-card-stones = Statt eine Karte zu spielen, wirf zwei Karten gleichen Werts (1 bis 9) ab, solange dieser Wunschstein frei ist: Nimm ihn und ziehe zwei Karten.
web-help-card-turn = In deinem Zug legst du eine Karte aus oder wirfst sie ab und ziehst dann eine, vom Nachziehstapel oder von einem Ablagestapel.
web-help-card-end = Wird die letzte Karte gezogen oder sind fünf der zehn Farbreihen geschlossen, spielt jeder noch zwei Karten, ohne nachzuziehen.
web-help-card-score = Jede Reihe zählt nach ihrer Länge: eine Karte -4, zwei -3, drei -2, vier 1, fünf 2, sechs 3, sieben 6, acht 7, neun oder mehr 10. Die graue Reihe zählt einen Punkt je Karte; Wunschsteine nach ihrer Anzahl.
web-help-board-caption = Der Spielplan: Der Start liegt unter der untersten Reihe, die Zielreihen oben, und jedes Feld zeigt seinen Wert.
# Why a card cannot be played; what may follow on a row.
web-why-wait = Du bist nicht am Zug: Die Karten warten.
web-why-draw = Erst nachziehen: eine Karte vom Stapel oder von einem Ablagestapel.
web-why-finish = Erst den Zug beenden (ein freier Schritt oder die Wahl eines Plättchens).
web-why-rising = Deine Reihe { $color } steigt ab { $last }: Diese Karte ist niedriger und kann nur abgeworfen werden.
web-why-falling = Deine Reihe { $color } fällt ab { $last }: Diese Karte ist höher und kann nur abgeworfen werden.
web-why-closed = Deine Reihe { $color } ist durch ihre Endkarte geschlossen: Diese Karte kann nur abgeworfen werden.
web-why-no-space = Keine deiner Figuren erreicht ein Feld { $color }: Diese Karte kann nur abgeworfen werden.
web-why-no-lay = Diese Karte { $color } kann jetzt nicht ausgelegt werden: Sie kann nur abgeworfen werden.
web-next-up = als Nächstes: { $last } oder mehr
web-next-down = als Nächstes: { $last } oder weniger
# Moves confirmed by a second tap.
web-tap-again = Tippe noch einmal zum Bestätigen.
web-confirm-move = Bestätigen: { $move }
web-confirm-moves = Jeden Zug mit einem zweiten Tippen bestätigen
web-this-device = Dieses Gerät

# Play now and rematches (web client)
web-play-now = Jetzt spielen
web-pn-intro = Sag, was du spielen willst: der Server setzt dich mit den nächsten Spielern zusammen, die dieselbe Partie wollen, und sagt dir Bescheid, wenn sie beginnt.
web-pn-seats = { $sizes } Spieler
web-casual = Ungewertet
web-cancel = Abbrechen
web-pn-bot = Ein Bot nimmt die freien Plätze
web-pn-bot-never = nie
web-pn-bot-after = nach { $wait }
web-pn-searching = { $n ->
    [one] Suche Mitspieler…
   *[other] Suche Mitspieler ({ $n } Anfragen)…
}
web-pn-waited = wartet seit { $wait }
web-rematch-offer = Revanche anbieten
web-rematch-waiting = Revanche angeboten: wartet auf { $names }
web-rematch-from = { $by } bietet eine Revanche an
web-rematch-accept = Revanche annehmen
web-rematch-decline = Ablehnen
web-rematch-withdraw = Angebot zurückziehen
web-rematch-started = Die Revanche: Partie #{ $id }
web-rematch-declined = { $by } hat die Revanche abgelehnt
web-rematch-lapsed = Das Revanche-Angebot ist abgelaufen
web-challenge-share = Einen Link zu dieser Partie teilen
web-challenge-link = Der Link: wer ihn zuerst öffnet, nimmt einen Platz
web-challenge-copied = Link kopiert
web-challenge-joining = Du nimmst Platz…
web-events = Turniere
web-events-registering = Anmeldung offen
web-events-running = Laufend
web-events-finished = Beendet
web-events-none = Zurzeit keine.
web-event-swiss = Schweizer System
web-event-round_robin = Rundenturnier
web-event-table = { $size } pro Tisch
web-event-entered-count = { $count } von { $max } angemeldet
web-event-starts = beginnt { $when }
web-event-when-full = beginnt, sobald es voll ist
web-event-round-of = Runde { $round } von { $rounds }
web-event-state-finished = beendet
web-event-state-cancelled = abgesagt
web-event-state-registering = Anmeldung offen
web-event-state-running = laufend
web-event-make = Turnier anlegen
web-event-name = Name
web-event-format = Modus
web-event-table-size = Spieler pro Tisch
web-event-rounds = Runden (Schweizer System)
web-event-max-players = Höchstens Spieler
web-event-start = Beginn
web-event-start-hint = Ohne Beginn startet das Turnier, sobald es voll ist.
web-event-opens-at = Anmeldung ab
web-event-opens-hint = Leer lassen, um sofort Anmeldungen anzunehmen.
web-event-opens = Anmeldung ab { $when }
web-event-create = Turnier anlegen
web-event-enter = Anmelden
web-event-entered = Du bist angemeldet.
web-event-withdraw = Zurückziehen
web-event-withdraw-confirm = Von diesem Turnier zurückziehen? Deine laufenden Partien werden aufgegeben.
web-event-withdrawn = Du hast dich zurückgezogen.
web-event-withdrawn-mark = zurückgezogen
web-event-your-game = Deine Partie in Runde { $round }
web-event-standings = Tabelle
web-event-crosstable = Kreuztabelle
web-event-rounds-heading = Runden
web-event-round = Runde { $round }
web-event-game-playing = läuft
web-event-game-over = beendet
web-event-bye-of = { $name }: Freilos ({ $points })
web-event-bye-short = Freilos ({ $points })
web-event-place = Platz
web-event-player = Spieler
web-event-points = Punkte
web-event-tie-breaks = Wertungen
web-tb-buchholz = Buchholz
web-tb-sonneborn_berger = Sonneborn-Berger
web-tb-opponents_points = Punkte der Gegner
web-tb-placings = Platzierungen
web-ladder-title = Leiter: { $variant }
web-ladder-rules = Du steigst unten ein und forderst Spieler bis zu zwei Fünftel deiner Sprosse über dir heraus. Gewinnst du als Herausforderer, nimmst du ihre Sprosse. Höchstens drei Herausforderungen aus und drei ein; wer die Zeit überschreitet, verlässt die Leiter.
web-ladder-join = Der Leiter beitreten
web-ladder-joined = Du bist auf der Leiter.
web-ladder-leave = Die Leiter verlassen
web-ladder-rung = Sprosse
web-ladder-open = Herausforderungen aus / ein
web-ladder-challenge = Herausfordern
web-ladder-challenges = Herausforderungen dieser Woche
web-ladder-challenge-of = { $challenger } fordert { $defender } heraus
web-ladder-outcome-climbed = aufgestiegen
web-ladder-outcome-held = gehalten
web-ladder-outcome-timed_out = auf Zeit verloren
web-ladders = Leitern

## The command line at the table
web-command-title = Befehlszeile
web-command-label = Zug oder Frage eingeben
web-command-send = Los
web-command-hint = Ein Zug in Worten („lege blau 4“, „ziehe Stapel“, die Nummer einer Wahl, oder mehrere: „3 dann Stapel“), oder eine Frage: Hand, Reihen, Brett, Punkte, letzte Züge, Restzeit, Plan. Während die anderen ziehen, legt „plan: 3 dann Stapel“ deinen nächsten Zug fest („plan: verwerfen“ verwirft ihn).
web-ask-hand = hand|meine hand|karten
web-ask-rows = reihen|pfade
web-ask-board = brett|figuren
web-ask-scores = punkte|punktestand
web-ask-moves = letzte züge|züge
web-ask-time = restzeit|zeit|uhr
web-answer-hand = Deine Hand: { $cards }
web-answer-no-hand = Deine Hand ist leer.
web-answer-rows = { $name }: { $rows }
web-answer-none = keine
web-answer-no-board = Diese Partie hat kein Brett.
web-answer-pawns = { $name }: { $pawns }
web-answer-start = Start
web-answer-score = { $name }: { $score } Punkte
web-answer-no-moves = Noch keine Züge.
web-answer-no-clock = Diese Partie hat keine Uhr.
web-answer-time = { $name }: noch { $left }
web-answer-not-seated = Nur die Spieler dieser Partie können sie spielen.
web-answer-choices = Deine Wahl:
web-ask-plan = plan|mein plan
web-plan-drop = verwerfen|keiner
web-answer-plan-kept = Dein Plan für deinen nächsten Zug:
web-answer-no-plan = Kein Plan wartet auf deinen nächsten Zug.
web-answer-plan-dropped = Dein Plan ist verworfen.
web-answer-plan-played = Dein letzter Plan wurde gespielt ({ $steps } Schritte).
web-answer-plan-not-played = Dein letzter Plan wurde nicht gespielt: { $reason }.
web-plan-title = Meinen nächsten Zug planen
web-plan-start = Seine Schritte wählen
web-plan-hint = Während die anderen ziehen, wähle die Schritte deines nächsten Zugs: Sie werden gespielt, sobald er beginnt, sofern jeder Schritt noch möglich ist. Das sind die Möglichkeiten, die er bietet, wenn die anderen nichts ändern; deine Hand ist die oben.
web-plan-turn-ends = Hier endet dein Zug.
web-plan-conditions = Nur spielen, wenn
web-plan-if-piles_unchanged = die Ablagestapel, von denen er zieht, noch dieselben Karten zeigen
web-plan-if-spaces_unchanged = die Felder, die seine Figuren erreichen, noch tragen, was sie jetzt tragen
web-plan-keep = Diesen Plan speichern
web-plan-clear = Neu beginnen
web-plan-then = dann
web-plan-waiting = Dein Plan für deinen nächsten Zug:
web-plan-or-else = sonst:
web-plan-drop-button = Plan verwerfen
web-plan-dropped = Der Plan ist verworfen.
web-plan-kept = Der Plan ist gespeichert: Er wird gespielt, wenn du dran bist.

## The text-first table
web-text-table-link = Texttisch (für Screenreader und Tastatur)
web-text-table-title = { $variant } mit { $players }: Texttisch
web-board-view-link = Zurück zum Brett
web-text-score = Punktestand { $score }
web-text-seat-to-act = { $name } (am Zug)
web-text-pile = Ablagestapel { $color }: { $top } oben, { $n } Karten
web-text-players = Spieler
web-text-table-piles = Nachziehstapel und Ablagestapel
web-text-last-moves = Letzte Züge
web-you = du

# Pläne für den nächsten Zug: warum ein Plan nicht gespielt wurde (mit dem Zug gesagt).
plan-not-played = Dein Plan wurde nicht gespielt: { $reason }.
plan-pile-empty = nichts
plan-miss-pile-changed = auf dem Ablagestapel { $color } liegt { $now } statt { $was }
plan-miss-space-changed = was auf { $space } lag, ist nicht mehr da
plan-miss-step-refused = Schritt { $step } ist nicht mehr möglich
plan-miss-turn-over = dein Zug endete vor Schritt { $step }
plan-miss-game-over = die Partie ist vorbei, oder du hast sie verlassen
plan-miss-played-yourself = du hast diesen Zug selbst gespielt
plan-miss-not-turn-start = es war nicht der Anfang deines Zugs
plan-miss-deadline = deine Zeit war abgelaufen
