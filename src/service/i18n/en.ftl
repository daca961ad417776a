# Every word the Keltis server says, in English: emails, pushes, the pages that email links open,
# and the web client. French (fr.ftl) and German (de.ftl) have the same messages; a test fails when
# one is missing. Ids: `mail-`, `push-`, `page-`, `web-` (sent to the web client), and shared ones.

## Shared: colours and cards

# The colours, by the rules' colour ids. Messages that need an inflected form get `$color_id`
# as well as the word.

color-green = green
color-yellow = yellow
color-brown = brown
color-blue = blue
color-pink = pink
color-gray = gray
# A card: "blue 7", and Keltis Card's end cards.
card = { $color } { $value }
card-end = { $color } end

## The game in words, one vocabulary for email, push, the move log, the command line and the API
## (the web client gets these messages under the same names).
## Spaces, and pawns by size and place (in a choice) or by size (in what was done):
space-path = { $color } path, step { $step }
space-grid = row { $row }, column { $column }
move-pawn-big-start = the big pawn from the start
move-pawn-start = a pawn from the start
move-pawn-big-on = the big pawn on { $space }
move-pawn-on = the pawn on { $space }
did-pawn-big = the big pawn
did-pawn = a pawn
# A choice of the turn; the move grammar (service/words) reads each back.
move-lay = lay { $card }
move-lay-pawn = lay { $card }, { $pawn } to { $to }
move-lay-path = lay { $card } on the { $path } path
move-discard = discard { $card }
move-step = free step: { $pawn } to { $to }
move-skip = skip
move-discard-row = discard the last card of your { $color } row
move-draw-deck = draw from the deck
move-draw-pile = draw from the { $color } discard pile
move-take-stone = take wish stone { $value } with { $card } and { $card2 }
move-pass = pass
# What a player did. A draw from the deck never names the card.
did-lay = { $who } laid { $card }
did-lay-path = { $who } laid { $card } on the { $path } path
did-lay-pawn = { $who } laid { $card }, { $pawn } to { $to }
did-discard = { $who } discarded { $card }
did-step = { $who } moved { $pawn } to { $to }
did-skip = { $who } passed up a move
did-draw-deck = { $who } drew from the deck
did-draw-pile = { $who } drew from the { $color } discard pile
did-discard-row = { $who } discarded from the { $color } row
did-take-stone = { $who } took a wish stone
did-pass = { $who } passed
did-resign = { $who } resigned
did-time-out = { $who } ran out of time


## Emails

mail-your-turn = Your turn in game { $id } ({ $variant })
mail-reminder = { $hours ->
    [one] One hour left for your turn in game { $id }
   *[other] { $hours } hours left for your turn in game { $id }
}
mail-invitation = { $by } invited you to a game of { $variant } (game { $id })
mail-rematch = { $by } offers a rematch of { $variant } game { $id }: accept or decline it on the game's page
mail-started = Game { $id } ({ $variant }) has started
mail-over = Game { $id } ({ $variant }) is over
mail-aborted = Game { $id } ({ $variant }) was aborted: its first turn was never played
mail-digest-chat = { $count ->
    [one] 1 new message at your tables
   *[other] { $count } new messages at your tables
}
mail-muted-subject = A moderator muted you until { $until }
mail-suspended-subject = A moderator suspended your account until { $until }
mail-moderated-reason = The reason given: { $reason }
mail-digest = { $count ->
    [one] One game is waiting for you
   *[other] { $count } games are waiting for you
}
mail-verify-subject = Confirm your email address
mail-verify-body = Please confirm that this address is yours, so that the Keltis server may send you notices about your games:
mail-reset-subject = Choose a new password
mail-reset-body = Someone (we hope you) asked to choose a new password for your Keltis account. The link below works once, within one hour.
mail-reset-ignore = If you did not ask for it, ignore this email: your password stays as it is.
mail-reset-link = Choose a new password
mail-password-changed-subject = Your password was changed
mail-password-changed-body = The password of your Keltis account was just changed, and the other devices were signed out.
mail-password-changed-link = If it was not you, choose a new password here
mail-two-factor-on-subject = Two-factor sign-in is on
mail-two-factor-on-body = Your Keltis account now asks for a code from your authenticator app (or a recovery code) when you sign in. Keep your recovery codes somewhere safe.
mail-two-factor-off-subject = Two-factor sign-in is off
mail-two-factor-off-body = Your Keltis account no longer asks for a code when you sign in.
mail-two-factor-link = If it was not you, change your password and check your settings
mail-account-deleted-subject = Your Keltis account was deleted
mail-account-deleted-body = Your Keltis account was deleted, as you asked: your games in progress were resigned, and your address, settings, sessions, tokens, webhooks, devices and notifications were erased.
mail-account-deleted-kept = Finished games keep their moves and results, under a neutral name instead of yours. This is the last email you get from us.
mail-account-deleted-link = Keltis
mail-players = Players
mail-to-play = To play: { $name }
mail-you-play = It is your turn.
mail-deadline = Deadline
mail-since = Since your last turn
mail-winners = Won by
mail-scores = Scores
mail-open = Open the game
mail-unsubscribe = No more emails of this kind

## Moves by email reply: the choices in a "your turn" email, and the answer to a reply
mail-hand = Your hand: { $cards }
mail-choices = Your choices:
mail-reply-how = Answer this email with the number of your choice, for example "3", or with the whole turn, for example "3 then deck". Words work too: "lay", "discard" or "draw" with a card of your hand or a colour, "big" for the big pawn, "deck", "skip", or a choice's whole line.
mail-reply-plan-how = Your next turn too, if you like: on a line of its own, "plan:" and the moves of that turn in words ("lay" or "discard" with a card of your hand, then "deck" or a colour's pile); it is played when your turn comes, if every step is still possible.
mail-reply-played-subject = Game { $id } ({ $variant }): your move is played
mail-reply-problem-subject = Game { $id } ({ $variant }): your answer was not played
mail-reply-played = Played from your email:
mail-reply-turn-goes-on = Your turn goes on: answer this email with your next choice.
mail-reply-problem-stale = Your answer was for an earlier turn of this game: nothing was played. Here is where the game stands now.
mail-reply-problem-no_move = There was no move in your answer.
mail-reply-problem-unreadable = "{ $said }" could not be read as a move.
mail-reply-problem-not_a_choice = "{ $said }" is not one of your choices now.
mail-reply-problem-ambiguous = "{ $said }" fits several of your choices: say which one, with its number.
mail-reply-problem-turn_over = "{ $said }" was not played: your turn was over.
mail-reply-problem-game_over = The game is over: nothing was played.
mail-reply-problem-other = "{ $said }" could not be played now.
mail-reply-plan-kept = Your plan for your next turn is kept: "{ $said }". It is played when your turn comes, if every step is still possible.
mail-reply-plan-reply_not_played = Your plan "{ $said }" was not kept: the move before it was not played.
mail-reply-plan-plan_on_your_turn = Your plan "{ $said }" was not kept: your turn goes on, play it first.
mail-reply-plan-no_next_turn = Your plan "{ $said }" was not kept: you have no turn left in this game.
mail-reply-plan-plan_not_playable = Your plan "{ $said }" was not kept: it could not be played on your next turn as it will begin.
mail-reply-plan-unreadable = Your plan "{ $said }" was not kept: it could not be read as the moves of your next turn.

## Push notifications (title and body, short: a phone's lock screen shows them)

push-your-turn = Your turn in game { $id }
push-reminder = Your time in game { $id } is running out
push-invitation = { $by } invites you to game { $id }
push-rematch = { $by } offers a rematch of game { $id }
push-started = Game { $id } has started
push-over = Game { $id } is over
push-open = Open the game
event-entered = You are entered in { $name }
event-round = Round { $round } of { $name }: your game is ready
event-bye = Round { $round } of { $name }: you have a bye
event-over = { $name } is over: you placed { $place } of { $of }
event-cancelled = { $name } was cancelled
event-open = Open the event
push-test-title = Keltis
push-test-body = Notifications reach this device.

## Pages opened from email links

page-confirmed = Email address confirmed
page-confirmed-body = Keltis will write to it about your games.
page-unsubscribe = Unsubscribe
page-unsubscribe-button = Stop these emails
page-unsubscribed = Unsubscribed
page-unsubscribed-body = You will get no more emails of this kind: { $kind ->
        [your_turn] your turn
        [deadline_reminder] deadline reminders
        [invitation] invitations
        [game_started] games started
        [game_over] games over
       *[digest] digests
    }.

## The web client (sent to it without the `web-` prefix; `{ $name }` placeholders only, or one
## selector that is the whole message)

web-which-pawn = Several pawns can go there: choose which.
web-deadline = Deadline: { $when } ({ $left } left)
web-time-left = Time left
web-away = on vacation
web-replay = Replay the game
web-invite = Invite
web-invited = { $name } is invited.
web-time-control = Time control
web-tc-none = none
web-tc-day = 1 day per move
web-tc-three_days = 3 days per move
web-tc-fischer = 3 days + 1 day per move (at most 7)
web-record-of = Record of game #{ $id }
web-step-of = Move { $step } of { $steps }
web-steps = Moves
web-the-deal = The deal
web-seen-by = Seen by
web-spectator = a spectator
web-hand-of = Hand of { $name }
web-moves = Moves
web-review = Review
web-review-ask = Ask for a review
web-review-waiting = The review is on its way.
web-review-none = Nobody has asked for a review of this game yet.
web-review-failed = This game could not be reviewed.
web-review-next-mistake = Next mistake
web-review-accuracy = Accuracy
web-review-accuracy-note = Accuracy: 100 is the best choice every time, 0 what choosing at random would give, in points of the final margin.
web-review-inaccuracies = Inaccuracies
web-review-mistakes = Mistakes
web-review-blunders = Blunders
web-review-luck = Luck of the draw
web-review-graph = Each player's winning chances across the game, at their own moves
web-review-cost = { $points } points and { $chance } % of winning chances given away
web-review-better = better: { $move }
web-mark-inaccuracy = Inaccuracy
web-mark-mistake = Mistake
web-mark-blunder = Blunder
web-accuracy-line = { $accuracy } over { $games ->
    [one] one reviewed game
   *[other] { $games } reviewed games
}
web-name = Name
web-password = Password
web-login = Log in
web-register = Register
web-logout = Log out
web-lobby = Lobby
web-my-games = My games
web-open-games = Open games
web-new-game = New game
web-variant = Variant
web-players = Players
web-invite-only = Invitation only
web-rated = Rated
web-opponent-bot = Bot opponents
web-none = none
web-create = Create
web-join = Join
web-open = Open
web-nothing = Nothing here yet.
web-status-open = waiting for players
web-status-active = playing
web-status-over = over
web-status-cancelled = cancelled
web-status-aborted = aborted
web-your-turn = Your turn
web-turn-of = Turn of { $name }
web-game-over = Game over
web-final-ranking = Final ranking
web-invitation = Invitation
web-left = { $left } left
web-next-game = Next game waiting for you: #{ $id }
web-offline = You are offline: what you see may be out of date, and moves wait until you are back.
web-push-enable = Notify me on this device
web-push-on = Notifications are on for this device.
web-push-denied = Notifications are blocked in this browser.
web-hand = Your hand
web-draw-pile = { $n ->
    [one] Draw pile: one card
   *[other] Draw pile: { $n } cards
}
web-discard-piles = Discard piles
web-board = Board
web-rows = Rows
web-stones = Wish stones
web-score-tile-points = Tile points
web-choose = Choose what to do
web-choose-card = Choose a card from your hand
web-resign = Resign
web-confirm-resign = Resign this game?
web-stale = Someone else moved first: the game was reloaded.
web-winner = Winner
web-score = Score
web-seat = Seat
web-retired = left the game
web-hand-size = { $n ->
    [one] one card
   *[other] { $n } cards
}
web-big-pawn = big
web-end-card = end
web-back = Back to the lobby
web-live = Live
web-green = { color-green }
web-yellow = { color-yellow }
web-brown = { color-brown }
web-blue = { color-blue }
web-pink = { color-pink }
web-gray = { color-gray }
web-error = Something went wrong: { $message }

# The settings screen.
web-settings = Settings
web-forgot-password = Forgot your password?
web-reset-title = Choose a new password
web-reset-intro = Give your user name or your confirmed email address: a link to choose a new password will be sent to that address.
web-reset-who = User name or email address
web-reset-ask = Send the link
web-reset-asked = If an account with a confirmed address matches, a link is on its way. It works once, within one hour.
web-reset-save = Set the new password
web-reset-done = Your new password is set and every device was signed out.
web-new-password = New password
web-new-password-again = New password, again
web-password-mismatch = The two passwords differ.
web-password-title = Password
web-current-password = Current password
web-revoke-tokens = Revoke my API tokens too
web-change-password = Change the password
web-password-changed = Password changed: your other devices were signed out.
web-export-title = Your data
web-export-intro = Everything the server holds about you (account, settings, ratings, games as you saw them, notifications), as one JSON file.
web-export = Download my data
web-export-done = Your data is downloaded.
web-oauth-title = An app asks for access
web-oauth-asks = “{ $app }” wants to use your Keltis account. It will be able to:
web-oauth-scope-read = see your games, their moves and records, and your account
web-oauth-scope-play = create and join games, play your moves and resign for you
web-oauth-scope-email = see and change your email address and which notices you get
web-oauth-scope-webhooks = see, add and remove your webhooks
web-oauth-scope-push = see, add and remove the devices that get your notifications
web-oauth-scope-organize = create games for other players who gave you their tokens
web-oauth-redirect = If you allow it, you go back to { $host }.
web-oauth-revocable = It never sees your password. You can take its access away at any time in the settings (API tokens).
web-oauth-allow = Allow
web-oauth-refuse = Refuse
web-oauth-invalid = This request cannot be answered:
web-token-app = app, answered to { $host }
web-chat = Table talk
web-chat-empty = No messages yet.
web-chat-say = Message to the table
web-chat-send = Send
web-note = My note
web-note-hint = Only you ever see this note.
web-note-save = Save note
web-note-saved = Note saved.
web-block = Block
web-unblock = Unblock
web-blocked-now = You blocked { $name }: they cannot invite you or join your games, and you no longer see each other's messages.
web-unblocked-now = You no longer block { $name }.
web-unread-messages = { $n ->
    [one] 1 new message
   *[other] { $n } new messages
}
web-follow = Follow
web-unfollow = Unfollow
web-followed-now = You follow { $name }: invite them when you create a game.
web-unfollowed-now = You no longer follow { $name }.
web-invite-friends = Invite players you follow
web-report = Report
web-report-reason = Why do you report this?
web-report-send = Send the report
web-report-sent = Thank you: the moderators will look at it.
web-timed-out-games = { $n ->
    [one] Abandoned 1 game on time.
   *[other] Abandoned { $n } games on time.
}
web-moderation = Moderation
web-moderators-only = This page is for moderators.
web-open-reports = Open reports
web-audit-log = What moderators did
web-moderation-reason = Reason (kept in the log)
web-mute-day = Mute for a day
web-suspend-week = Suspend for a week
web-dismiss = Dismiss
web-bot-account-title = A bot's account
web-bot-account-intro = Is this account for a program that plays through the API? Mark it as a bot: it then shows as a bot everywhere, accepts invitations at once, and is rated with its bot mark. Only an account that has never sat at a game can become a bot, and it never becomes a person's account again.
web-bot-account-sure = I understand: this account is a bot for good
web-bot-account-mark = Make this account a bot
web-bot-account-is = This account is a bot: it plays through the API and shows as a bot everywhere.
web-delete-title = Delete my account
web-delete-intro = Deleting your account cannot be undone. Your open games are left and your games in progress resigned (with 3 or 4 players a bot takes your seat); your address, settings, devices, tokens, webhooks, notifications and ratings are erased. Finished games keep their moves and results under a neutral name instead of yours, and nobody can take your name for 30 days. Download your data first if you want to keep it.
web-delete-sure = I understand: my account is deleted for good
web-delete-account = Delete my account
web-account-deleted = Your account is deleted. Goodbye!
web-two-factor-title = Two-factor sign-in
web-two-factor-off = Off: you sign in with your password alone.
web-two-factor-on = { $n ->
    [one] On. One recovery code is left.
   *[other] On. { $n } recovery codes are left.
}
web-two-factor-start = Turn on two-factor sign-in
web-two-factor-scan = Scan this code with an authenticator app, or type the secret into it:
web-two-factor-secret = Secret
web-two-factor-code = Code from the app
web-two-factor-confirm = Confirm and turn on
web-two-factor-codes = Your recovery codes: each signs in once when you do not have your app. Keep them somewhere safe; they are not shown again.
web-two-factor-disable-code = Code from the app, or a recovery code
web-two-factor-disable = Turn off two-factor sign-in
web-login-code = Code from your authenticator app (or a recovery code)
web-email = Email
web-email-address = Email address
web-save = Save
web-saved = Saved.
web-email-none = No address: you get no email.
web-email-unverified = Not confirmed yet: open the link sent to this address.
web-email-verified = Confirmed.
web-email-bounced = The mail server refused this address: nothing is sent to it. Save it again to retry.
web-notices = Notifications
web-notice = Notice
web-channel-email = Email
web-channel-push = Push
web-kind-your_turn = Your turn
web-kind-deadline_reminder = Deadline reminders
web-kind-invitation = Invitations
web-kind-game_started = Game started
web-kind-game_over = Game over
web-digest = Emails for your turn
web-moves-by-reply = Play by replying: the "your turn" email lists your hand and your choices, and your answer to it is your move
web-digest-off = One per turn
web-digest-every = { $hours ->
    [one] One summary every hour
   *[other] One summary every { $hours } hours
}
web-notice-language = Language of emails and notifications
web-vacation = Vacation
web-vacation-left = Left this year: { $left } (of { $days } days)
web-vacation-until = On vacation until { $when }.
web-vacation-start = Start a vacation
web-vacation-stop = End the vacation
web-devices = Signed-in devices
web-device-unknown = Unknown device
web-device-this = this device
web-last-used = last used { $when }
web-last-push = last push { $when }
web-sign-out = Sign out
web-sign-out-all = Sign out everywhere
web-tokens = API tokens
web-token-name = Token name
web-scope-read = Read
web-scope-play = Play
web-scope-email = Email settings
web-scope-webhooks = Webhooks
web-scope-push = Push devices
web-scope-organize = Organize: games for other players in bulk
web-token-create = Create a token
web-token-new = Copy this token now: it is not shown again.
web-revoke = Revoke
web-revoked = revoked
web-push-devices = Push devices
web-push-test = Send a test
web-remove = Remove

# The table in words: spaces, pawns, tiles, rows, scores.
web-pawn-of = a pawn of { $name }
web-pawn-big-of = the big pawn of { $name }
web-at-start = { $n ->
    [one] one pawn at the start
   *[other] { $n } pawns at the start
}
web-goal-count = Pawns in the goal zone: { $n } of 5
web-pawns = Pawns
web-tiles = Tiles
web-tile-points = { $n ->
    [one] 1 point
   *[other] { $n } points
}
web-tile-points-any = points (1 to 9)
web-tile-stone = wish stone
web-tile-stone-color = { $color } wish stone
web-tile-clover = clover: a free step
web-tile-discard = discard tile: discard a card
web-stone-pile = { $color } wish stones: { $n } left
web-direction-open = open
web-direction-ascending = rising
web-direction-descending = falling
web-score-parts = Score by part
web-paths = Paths
web-gray-path = Gray path
# The lobby's form.
web-variant-keltis = Keltis
web-variant-neue-wege = Keltis: Neue Wege, neue Ziele
web-variant-keltis-card = Keltis Card
web-bot-for-seat = Bot for seat { $seat }
web-bot-twice = Each bot takes one seat: choose another one.
web-game-title = { $variant } · { $players }
web-log = Moves so far
web-since-your-turn = Since your last turn

# Players, profiles and leaderboards.
web-leaderboards = Leaderboards
web-leaderboard-of = Leaderboard: { $variant }
web-leaderboard-empty = No established ratings yet: a rating shows here after a few rated games.
web-rank = Rank
web-player = Player
web-rating = Rating
web-rated-games = Rated games
web-rating-chart = History
web-rating-history = Rating history over { $n } games: from { $from } to { $to }
web-provisional = provisional
web-ratings = Ratings
web-record = Record
web-record-line = { $played } played, { $won } won, { $lost } lost, { $drawn } drawn
web-member-since = Member since { $when }
web-current-games = Current games
web-finished-games = Finished games
web-bot = bot
# The record viewer's steps.
web-first = First
web-previous = Previous
web-next = Next
web-last = Last

# How to play.
web-help = How to play
web-help-title = How to play { $variant }
web-help-rows = Each card you lay goes into your own row of its colour. A row rises or falls: the first card that differs from the row's first card sets the direction for good, and equal values always fit.
web-help-rows-example = Two rows: the blue one rises (after 3 and 3, the 6 set it), the pink one falls.
web-help-turn = On your turn, play one card from your hand: lay it in its row, which moves a pawn, or discard it face up on its colour's pile. Then draw back to eight cards, from the deck or from the top of any pile (not a card you discarded this turn).
web-help-keltis-goal = Move your five pawns (one big, four small) along the five coloured paths of the board, collect wish stones and points, and have the highest total at the end.
web-help-keltis-board = A card of a colour moves your pawn on that colour's path one step forward, whatever its value; if you have no pawn there, one of yours leaves the start for it. You never have two pawns on one path.
web-help-keltis-tiles = Tiles on the paths: points score at once, a clover gives a free step with any of your pawns, a wish stone is yours to keep. With your pawn on a path's last stone, a card of that colour gives a free step to another pawn.
web-help-keltis-end = The game ends at once when the fifth pawn enters the goal zone (the top three rows), or when the deck's last card is drawn.
web-help-keltis-score = Each pawn scores the value of its stone (the big pawn twice, negative values too), plus tile points, plus wish stones: none -4, one -3, two 2, three 3, four 6, five or more 10.
web-help-neue-wege-goal = The same cards and rows, on a board of branching paths: move your pawns up from the start, over spaces of every colour, to the goal rows.
web-help-neue-wege-board = To lay a card of a colour, move one of your pawns (from the start or a space) to a next space of that colour, or to a joker space, which takes any colour. Any number of pawns may share a space. A card that moves no pawn can only be discarded.
web-help-neue-wege-tiles = Tiles: points (2 or 3), a clover for a free step, a wish stone of a colour, and "discard a card" (from your hand, then you draw one more, or the last card of one of your rows). Pile spaces give the top wish stone of their pile.
web-help-neue-wege-score = Pawns score their row's value (the big pawn twice), plus tile points, plus wish stones by the number of colours you hold (none -4 up to five colours 10), and 10 more for each colour you hold three times.
web-help-card-goal = A game for two: lay long rows of cards in five colours, collect wish stones, and have the highest total at the end.
web-help-card-gray = Gray cards go on any of your colour rows whose last card has the same value, or on your gray row in any order, one point each. An end card closes its colour's row: only the other end card of that colour may follow.
web-help-card-stones = Instead of playing a card, discard two cards of the same value (1 to 9) while that wish stone is free: take it, and draw two.
web-help-card-turn = On your turn, lay one card or discard it, then draw one, from the deck or the top of any pile.
web-help-card-end = When the deck's last card is drawn, or when five of the ten colour rows are closed, each player plays two more cards without drawing.
web-help-card-score = Each row scores by its length: one card -4, two -3, three -2, four 1, five 2, six 3, seven 6, eight 7, nine or more 10. The gray row scores one per card; wish stones by count.
web-help-board-caption = The board: the start is below the bottom row, the goal rows are at the top, and each space shows its value.
# Why a card cannot be played; what may follow on a row.
web-why-wait = It is not your turn: the cards wait.
web-why-draw = Draw first: a card from the deck or a pile.
web-why-finish = Finish the move first (a free step or a tile's choice).
web-why-rising = Your { $color } row rises from { $last }: this card is lower, so it can only be discarded.
web-why-falling = Your { $color } row falls from { $last }: this card is higher, so it can only be discarded.
web-why-closed = Your { $color } row is closed by its end card: this card can only be discarded.
web-why-no-space = None of your pawns can reach a { $color } space: this card can only be discarded.
web-why-no-lay = This { $color } card cannot be laid now: it can only be discarded.
web-next-up = next: { $last } or more
web-next-down = next: { $last } or less
# Moves confirmed by a second tap.
web-tap-again = Tap it again to confirm.
web-confirm-move = Confirm: { $move }
web-confirm-moves = Tap again to confirm each move
web-this-device = This device

# Play now and rematches (web client)
web-play-now = Play now
web-pn-intro = Say what you will play: the server seats you with the next players who want the same game, and tells you when it starts.
web-pn-seats = { $sizes } players
web-casual = Casual
web-cancel = Cancel
web-pn-bot = A bot takes the empty seats
web-pn-bot-never = never
web-pn-bot-after = after { $wait }
web-pn-searching = { $n ->
    [one] Searching for players…
   *[other] Searching for players ({ $n } requests)…
}
web-pn-waited = waiting for { $wait }
web-rematch-offer = Offer a rematch
web-rematch-waiting = Rematch offered: waiting for { $names }
web-rematch-from = { $by } offers a rematch
web-rematch-accept = Accept the rematch
web-rematch-decline = Decline
web-rematch-withdraw = Withdraw the offer
web-rematch-started = The rematch: game #{ $id }
web-rematch-declined = { $by } declined the rematch
web-rematch-lapsed = The rematch offer lapsed
web-challenge-share = Share a link to this game
web-challenge-link = The link: whoever opens it first takes a seat
web-challenge-copied = Link copied
web-challenge-joining = Taking your seat…
web-events = Events
web-events-registering = Taking entries
web-events-running = Running
web-events-finished = Finished
web-events-none = None at the moment.
web-event-swiss = Swiss
web-event-round_robin = Round robin
web-event-table = { $size } a table
web-event-entered-count = { $count } of { $max } entered
web-event-starts = starts { $when }
web-event-when-full = starts once full
web-event-round-of = round { $round } of { $rounds }
web-event-state-finished = finished
web-event-state-cancelled = cancelled
web-event-state-registering = taking entries
web-event-state-running = running
web-event-make = Make an event
web-event-name = Name
web-event-format = Format
web-event-table-size = Players at a table
web-event-rounds = Rounds (Swiss)
web-event-max-players = Most players
web-event-start = Starts at
web-event-start-hint = Leave the start empty to start once the event is full.
web-event-opens-at = Entries open at
web-event-opens-hint = Leave it empty to take entries at once.
web-event-opens = entries open { $when }
web-event-create = Make the event
web-event-enter = Enter
web-event-entered = You are entered.
web-event-withdraw = Withdraw
web-event-withdraw-confirm = Withdraw from this event? Your games under way will be resigned.
web-event-withdrawn = You have withdrawn.
web-event-withdrawn-mark = withdrawn
web-event-your-game = Your game of round { $round }
web-event-standings = Standings
web-event-crosstable = Crosstable
web-event-rounds-heading = Rounds
web-event-round = Round { $round }
web-event-game-playing = playing
web-event-game-over = over
web-event-bye-of = { $name }: a bye ({ $points })
web-event-bye-short = bye ({ $points })
web-event-place = Place
web-event-player = Player
web-event-points = Points
web-event-tie-breaks = Tie-breaks
web-tb-buchholz = Buchholz
web-tb-sonneborn_berger = Sonneborn-Berger
web-tb-opponents_points = Opponents' points
web-tb-placings = Placings
web-ladder-title = Ladder: { $variant }
web-ladder-rules = Join at the bottom; challenge a player up to two fifths of your rung above. Win as the challenger and you take their rung. Three challenges out and three in at most; whoever runs out of time leaves the ladder.
web-ladder-join = Join the ladder
web-ladder-joined = You are on the ladder.
web-ladder-leave = Leave the ladder
web-ladder-rung = Rung
web-ladder-open = Challenges out / in
web-ladder-challenge = Challenge
web-ladder-challenges = Challenges this week
web-ladder-challenge-of = { $challenger } challenges { $defender }
web-ladder-outcome-climbed = climbed
web-ladder-outcome-held = held
web-ladder-outcome-timed_out = lost on time
web-ladders = Ladders

## The command line at the table
web-command-title = Command line
web-command-label = Type a move or a question
web-command-send = Go
web-command-hint = A move in words ("lay blue 4", "draw deck", a choice's number, or several: "3 then deck"), or a question: hand, rows, board, scores, last moves, time left, plan. While the others move, "plan: 3 then deck" leaves your next turn ("plan: drop" drops it).
web-ask-hand = hand|my hand|cards
web-ask-rows = rows|paths
web-ask-board = board|pawns
web-ask-scores = scores|score
web-ask-moves = last moves|moves
web-ask-time = time left|time|clock
web-answer-hand = Your hand: { $cards }
web-answer-no-hand = Your hand is empty.
web-answer-rows = { $name }: { $rows }
web-answer-none = none
web-answer-no-board = This game has no board.
web-answer-pawns = { $name }: { $pawns }
web-answer-start = start
web-answer-score = { $name }: { $score } points
web-answer-no-moves = No moves yet.
web-answer-no-clock = This game has no clock.
web-answer-time = { $name }: { $left } left
web-answer-not-seated = Only the players of this game can play it.
web-answer-choices = Your choices:
web-ask-plan = plan|my plan
web-plan-drop = drop|none
web-answer-plan-kept = Your plan for your next turn:
web-answer-no-plan = No plan waits for your next turn.
web-answer-plan-dropped = Your plan is dropped.
web-answer-plan-played = Your last plan was played ({ $steps } steps).
web-answer-plan-not-played = Your last plan was not played: { $reason }.
web-plan-title = Plan my next turn
web-plan-start = Choose its steps
web-plan-hint = While the others move, choose the steps of your next turn: they are played the moment it begins, if every step is still possible. These are the choices it will open if the others change nothing; your hand is the one above.
web-plan-turn-ends = Your turn ends here.
web-plan-conditions = Play it only if
web-plan-if-piles_unchanged = the discard piles it draws from still show the same cards
web-plan-if-spaces_unchanged = the spaces its pawns reach still hold what they hold now
web-plan-keep = Keep this plan
web-plan-clear = Start again
web-plan-then = then
web-plan-waiting = Your plan for your next turn:
web-plan-or-else = or else:
web-plan-drop-button = Drop the plan
web-plan-dropped = The plan is dropped.
web-plan-kept = The plan is kept: it is played when your turn comes.

## The text-first table
web-text-table-link = Text table (for screen readers and keyboards)
web-text-table-title = { $variant } with { $players }: text table
web-board-view-link = Back to the board
web-text-score = score { $score }
web-text-seat-to-act = { $name } (to play)
web-text-pile = { $color } discard pile: { $top } on top, { $n } cards
web-text-players = Players
web-text-table-piles = Draw pile and discard piles
web-text-last-moves = Last moves
web-you = you

# Plans for the next turn: why a plan was not played (told with the turn).
plan-not-played = Your plan was not played: { $reason }.
plan-pile-empty = nothing
plan-miss-pile-changed = the { $color } pile shows { $now } instead of { $was }
plan-miss-space-changed = what was on { $space } is gone
plan-miss-step-refused = step { $step } is no longer possible
plan-miss-turn-over = your turn ended before step { $step }
plan-miss-game-over = the game is over, or you left it
plan-miss-played-yourself = you played this turn yourself
plan-miss-not-turn-start = it was not the start of your turn
plan-miss-deadline = your time had run out
