# Tout ce que dit le serveur Keltis, en français : les e-mails, les notifications, les pages
# qu'ouvrent les liens des e-mails et le client web. Les mêmes messages qu'en.ftl (voir là-bas).

## Partagé : couleurs et cartes

# Les couleurs, par les identifiants des règles.

color-green = vert
color-yellow = jaune
color-brown = marron
color-blue = bleu
color-pink = rose
color-gray = gris
card = { $color } { $value }
card-end = { $color } fin

## Le jeu en mots, un seul vocabulaire pour l'e-mail, les notifications, l'historique, la ligne de commande et l'API
## (le client web reçoit ces messages sous les mêmes noms).
## Cases, et pions par taille et place (dans un choix) ou par taille (dans ce qui est fait) :
space-path = chemin { $color }, case { $step }
space-grid = rangée { $row }, colonne { $column }
move-pawn-big-start = le grand pion du départ
move-pawn-start = un pion du départ
move-pawn-big-on = le grand pion en { $space }
move-pawn-on = le pion en { $space }
did-pawn-big = le grand pion
did-pawn = un pion
# La défausse, la rangée : l'adjectif s'accorde ($color_id : l'identifiant de la couleur).
# Un choix du tour ; la grammaire des coups (service/words) relit chacun.
move-lay = poser { $card }
move-lay-pawn = poser { $card }, { $pawn } vers { $to }
move-lay-path = poser { $card } sur le chemin { $path }
move-discard = défausser { $card }
move-step = pas gratuit : { $pawn } vers { $to }
move-skip = passer
move-discard-row = défausser la dernière carte de votre rangée { $color_id ->
        [green] verte
        [blue] bleue
        [gray] grise
       *[other] { $color }
    }
move-draw-deck = piocher dans la pioche
move-draw-pile = prendre dans la défausse { $color_id ->
        [green] verte
        [blue] bleue
        [gray] grise
       *[other] { $color }
    }
move-take-stone = prendre la pierre à vœux { $value } avec { $card } et { $card2 }
move-pass = passer
# Ce qu'a fait un joueur. Une pioche ne nomme jamais la carte.
did-lay = { $who } a posé { $card }
did-lay-path = { $who } a posé { $card } sur le chemin { $path }
did-lay-pawn = { $who } a posé { $card }, { $pawn } vers { $to }
did-discard = { $who } a défaussé { $card }
did-step = { $who } a avancé { $pawn } vers { $to }
did-skip = { $who } a renoncé à avancer
did-draw-deck = { $who } a pioché
did-draw-pile = { $who } a pris dans la défausse { $color_id ->
        [green] verte
        [blue] bleue
        [gray] grise
       *[other] { $color }
    }
did-discard-row = { $who } a défaussé de la rangée { $color_id ->
        [green] verte
        [blue] bleue
        [gray] grise
       *[other] { $color }
    }
did-take-stone = { $who } a pris une pierre à vœux
did-pass = { $who } a passé
did-resign = { $who } a abandonné
did-time-out = { $who } a dépassé son temps


## E-mails

mail-your-turn = À vous de jouer dans la partie { $id } ({ $variant })
mail-reminder = { $hours ->
    [one] Plus qu'une heure pour jouer dans la partie { $id }
   *[other] Plus que { $hours } heures pour jouer dans la partie { $id }
}
mail-invitation = { $by } vous invite à une partie de { $variant } (partie { $id })
mail-rematch = { $by } propose une revanche de la partie { $id } de { $variant } : acceptez-la ou refusez-la sur la page de la partie
mail-started = La partie { $id } ({ $variant }) a commencé
mail-over = La partie { $id } ({ $variant }) est terminée
mail-aborted = La partie { $id } ({ $variant }) est annulée : son premier tour n'a jamais été joué
mail-digest-chat = { $count ->
    [one] 1 nouveau message à vos tables
   *[other] { $count } nouveaux messages à vos tables
}
mail-muted-subject = Un modérateur vous a rendu muet jusqu'au { $until }
mail-suspended-subject = Un modérateur a suspendu votre compte jusqu'au { $until }
mail-moderated-reason = Motif donné : { $reason }
mail-digest = { $count ->
    [one] Une partie vous attend
   *[other] { $count } parties vous attendent
}
mail-verify-subject = Confirmez votre adresse e-mail
mail-verify-body = Confirmez que cette adresse est bien la vôtre, pour que le serveur Keltis puisse vous écrire au sujet de vos parties :
mail-reset-subject = Choisissez un nouveau mot de passe
mail-reset-body = Quelqu'un (vous, nous l'espérons) a demandé à choisir un nouveau mot de passe pour votre compte Keltis. Le lien ci-dessous sert une fois, pendant une heure.
mail-reset-ignore = Si vous ne l'avez pas demandé, ignorez cet e-mail : votre mot de passe reste le même.
mail-reset-link = Choisir un nouveau mot de passe
mail-password-changed-subject = Votre mot de passe a été changé
mail-password-changed-body = Le mot de passe de votre compte Keltis vient d'être changé, et vos autres appareils ont été déconnectés.
mail-password-changed-link = Si ce n'était pas vous, choisissez un nouveau mot de passe ici
mail-two-factor-on-subject = La connexion en deux étapes est activée
mail-two-factor-on-body = Votre compte Keltis demande désormais un code de votre application d'authentification (ou un code de secours) à la connexion. Gardez vos codes de secours en lieu sûr.
mail-two-factor-off-subject = La connexion en deux étapes est désactivée
mail-two-factor-off-body = Votre compte Keltis ne demande plus de code à la connexion.
mail-two-factor-link = Si ce n'était pas vous, changez votre mot de passe et vérifiez vos réglages
mail-account-deleted-subject = Votre compte Keltis a été supprimé
mail-account-deleted-body = Votre compte Keltis a été supprimé comme vous l'avez demandé : vos parties en cours ont été abandonnées, et votre adresse, vos réglages, sessions, jetons, webhooks, appareils et notifications ont été effacés.
mail-account-deleted-kept = Les parties terminées gardent leurs coups et leurs résultats, sous un nom neutre à la place du vôtre. C'est le dernier e-mail que vous recevez de notre part.
mail-account-deleted-link = Keltis
mail-players = Joueurs
mail-to-play = À jouer : { $name }
mail-you-play = C'est à vous de jouer.
mail-deadline = Date limite
mail-since = Depuis votre dernier tour
mail-winners = Gagnée par
mail-scores = Scores
mail-open = Ouvrir la partie
mail-unsubscribe = Ne plus recevoir ce type d'e-mail

## Coups par réponse à l'e-mail : les choix dans l'e-mail « à vous de jouer », et la réponse
mail-hand = Votre main : { $cards }
mail-choices = Vos choix :
mail-reply-how = Répondez à cet e-mail avec le numéro de votre choix, par exemple « 3 », ou avec tout le tour, par exemple « 3 puis pioche ». Les mots marchent aussi : « pose », « défausse » ou « pioche » avec une carte de votre main ou une couleur, « grand » pour le grand pion, « passe », ou toute la ligne d'un choix.
mail-reply-plan-how = Votre prochain tour aussi, si vous voulez : sur une ligne à part, « plan: » et les coups de ce tour en mots (« pose » ou « défausse » avec une carte de votre main, puis « pioche » ou la défausse d'une couleur) ; il sera joué quand votre tour viendra, si chaque étape est encore possible.
mail-reply-played-subject = Partie { $id } ({ $variant }) : votre coup est joué
mail-reply-problem-subject = Partie { $id } ({ $variant }) : votre réponse n'a pas été jouée
mail-reply-played = Joué depuis votre e-mail :
mail-reply-turn-goes-on = Votre tour continue : répondez à cet e-mail avec votre choix suivant.
mail-reply-problem-stale = Votre réponse portait sur un tour précédent de cette partie : rien n'a été joué. Voici où en est la partie.
mail-reply-problem-no_move = Votre réponse ne contenait aucun coup.
mail-reply-problem-unreadable = « { $said } » ne se lit pas comme un coup.
mail-reply-problem-not_a_choice = « { $said } » ne fait pas partie de vos choix maintenant.
mail-reply-problem-ambiguous = « { $said } » correspond à plusieurs choix : dites lequel, avec son numéro.
mail-reply-problem-turn_over = « { $said } » n'a pas été joué : votre tour était fini.
mail-reply-problem-game_over = La partie est finie : rien n'a été joué.
mail-reply-problem-other = « { $said } » ne peut pas être joué maintenant.
mail-reply-plan-kept = Votre plan pour votre prochain tour est gardé : « { $said } ». Il sera joué quand votre tour viendra, si chaque étape est encore possible.
mail-reply-plan-reply_not_played = Votre plan « { $said } » n'a pas été gardé : le coup qui le précède n'a pas été joué.
mail-reply-plan-plan_on_your_turn = Votre plan « { $said } » n'a pas été gardé : votre tour continue, jouez-le d'abord.
mail-reply-plan-no_next_turn = Votre plan « { $said } » n'a pas été gardé : il ne vous reste aucun tour dans cette partie.
mail-reply-plan-plan_not_playable = Votre plan « { $said } » n'a pas été gardé : il ne pourrait pas être joué à votre prochain tour tel qu'il commencera.
mail-reply-plan-unreadable = Votre plan « { $said } » n'a pas été gardé : il ne se lit pas comme les coups de votre prochain tour.

## Notifications push

push-your-turn = À vous de jouer dans la partie { $id }
push-reminder = Votre temps s'écoule dans la partie { $id }
push-invitation = { $by } vous invite à la partie { $id }
push-rematch = { $by } propose une revanche de la partie { $id }
push-started = La partie { $id } a commencé
push-over = La partie { $id } est terminée
push-open = Ouvrir la partie
event-entered = Vous êtes inscrit à { $name }
event-round = Ronde { $round } de { $name } : votre partie est prête
event-bye = Ronde { $round } de { $name } : vous êtes exempt
event-over = { $name } est terminé : vous êtes { $place }e sur { $of }
event-cancelled = { $name } est annulé
event-open = Voir le tournoi
push-test-title = Keltis
push-test-body = Les notifications arrivent sur cet appareil.

## Pages ouvertes par les liens des e-mails

page-confirmed = Adresse confirmée
page-confirmed-body = Keltis vous y écrira au sujet de vos parties.
page-unsubscribe = Se désabonner
page-unsubscribe-button = Ne plus recevoir ces e-mails
page-unsubscribed = Désabonnement effectué
page-unsubscribed-body = Vous ne recevrez plus d'e-mails de ce type : { $kind ->
        [your_turn] à vous de jouer
        [deadline_reminder] rappels d'échéance
        [invitation] invitations
        [game_started] parties commencées
        [game_over] parties terminées
       *[digest] résumés
    }.

## Le client web

web-which-pawn = Plusieurs pions peuvent y aller : choisissez lequel.
web-deadline = Échéance : { $when } (reste { $left })
web-time-left = Temps restant
web-away = en vacances
web-replay = Revoir la partie
web-invite = Inviter
web-invited = { $name } est invité.
web-time-control = Cadence
web-tc-none = aucune
web-tc-day = 1 jour par coup
web-tc-three_days = 3 jours par coup
web-tc-fischer = 3 jours + 1 jour par coup (7 au plus)
web-record-of = Partie n° { $id }
web-step-of = Coup { $step } sur { $steps }
web-steps = Coups
web-the-deal = La donne
web-seen-by = Vue de
web-spectator = un spectateur
web-hand-of = Main de { $name }
web-moves = Coups
web-review = Analyse
web-review-ask = Demander une analyse
web-review-waiting = L'analyse est en cours.
web-review-none = Personne n'a encore demandé l'analyse de cette partie.
web-review-failed = Cette partie n'a pas pu être analysée.
web-review-next-mistake = Erreur suivante
web-review-accuracy = Précision
web-review-accuracy-note = Précision : 100, le meilleur choix à chaque fois ; 0, ce que donnerait un choix au hasard, en points d’écart final.
web-review-inaccuracies = Imprécisions
web-review-mistakes = Erreurs
web-review-blunders = Gaffes
web-review-luck = Chance au tirage
web-review-graph = Les chances de gagner de chaque joueur au fil de la partie, à ses propres coups
web-review-cost = { $points } points et { $chance } % de chances de gagner perdus
web-review-better = mieux : { $move }
web-mark-inaccuracy = Imprécision
web-mark-mistake = Erreur
web-mark-blunder = Gaffe
web-accuracy-line = { $accuracy } sur { $games ->
    [one] une partie analysée
   *[other] { $games } parties analysées
}
web-name = Nom
web-password = Mot de passe
web-login = Se connecter
web-register = S'inscrire
web-logout = Se déconnecter
web-lobby = Salon
web-my-games = Mes parties
web-open-games = Parties ouvertes
web-new-game = Nouvelle partie
web-variant = Variante
web-players = Joueurs
web-invite-only = Sur invitation
web-rated = Classée
web-opponent-bot = Robots adversaires
web-none = aucun
web-create = Créer
web-join = Rejoindre
web-open = Ouvrir
web-nothing = Rien pour le moment.
web-status-open = en attente de joueurs
web-status-active = en cours
web-status-over = terminée
web-status-cancelled = annulée
web-status-aborted = abandonnée
web-your-turn = À vous de jouer
web-turn-of = Au tour de { $name }
web-game-over = Partie terminée
web-final-ranking = Classement final
web-invitation = Invitation
web-left = reste { $left }
web-next-game = Partie suivante qui vous attend : #{ $id }
web-offline = Vous êtes hors ligne : ce que vous voyez peut être dépassé, et les coups attendent votre retour.
web-push-enable = M’avertir sur cet appareil
web-push-on = Les notifications sont activées sur cet appareil.
web-push-denied = Les notifications sont bloquées dans ce navigateur.
web-hand = Votre main
web-draw-pile = { $n ->
    [one] Pioche : { $n } carte
   *[other] Pioche : { $n } cartes
}
web-discard-piles = Défausses
web-board = Plateau
web-rows = Rangées
web-stones = Pierres à vœux
web-score-tile-points = Points de tuiles
web-choose = Choisissez votre action
web-choose-card = Choisissez une carte de votre main
web-resign = Abandonner
web-confirm-resign = Abandonner cette partie ?
web-stale = Quelqu'un a joué avant vous : la partie a été rechargée.
web-winner = Gagnant
web-score = Score
web-seat = Place
web-retired = a quitté la partie
web-hand-size = { $n ->
    [one] { $n } carte
   *[other] { $n } cartes
}
web-big-pawn = grand
web-end-card = fin
web-back = Retour au salon
web-live = En direct
web-green = { color-green }
web-yellow = { color-yellow }
web-brown = { color-brown }
web-blue = { color-blue }
web-pink = { color-pink }
web-gray = { color-gray }
web-error = Une erreur est survenue : { $message }

# L'écran des réglages.
web-settings = Réglages
web-forgot-password = Mot de passe oublié ?
web-reset-title = Choisir un nouveau mot de passe
web-reset-intro = Indiquez votre nom d'utilisateur ou votre adresse e-mail confirmée : un lien pour choisir un nouveau mot de passe sera envoyé à cette adresse.
web-reset-who = Nom d'utilisateur ou adresse e-mail
web-reset-ask = Envoyer le lien
web-reset-asked = Si un compte avec une adresse confirmée correspond, un lien est en route. Il sert une fois, pendant une heure.
web-reset-save = Enregistrer le nouveau mot de passe
web-reset-done = Votre nouveau mot de passe est enregistré et tous vos appareils ont été déconnectés.
web-new-password = Nouveau mot de passe
web-new-password-again = Nouveau mot de passe, à nouveau
web-password-mismatch = Les deux mots de passe diffèrent.
web-password-title = Mot de passe
web-current-password = Mot de passe actuel
web-revoke-tokens = Révoquer aussi mes jetons d'API
web-change-password = Changer le mot de passe
web-password-changed = Mot de passe changé : vos autres appareils ont été déconnectés.
web-export-title = Vos données
web-export-intro = Tout ce que le serveur garde sur vous (compte, réglages, classements, parties telles que vous les avez vues, notifications), en un fichier JSON.
web-export = Télécharger mes données
web-export-done = Vos données sont téléchargées.
web-oauth-title = Une application demande l'accès
web-oauth-asks = « { $app } » veut utiliser votre compte Keltis. Elle pourra :
web-oauth-scope-read = voir vos parties, leurs coups et leurs comptes rendus, et votre compte
web-oauth-scope-play = créer et rejoindre des parties, jouer vos coups et abandonner pour vous
web-oauth-scope-email = voir et changer votre adresse e-mail et les notifications que vous recevez
web-oauth-scope-webhooks = voir, ajouter et retirer vos webhooks
web-oauth-scope-push = voir, ajouter et retirer les appareils qui reçoivent vos notifications
web-oauth-scope-organize = créer des parties pour d'autres joueurs qui vous ont donné leur jeton
web-oauth-redirect = Si vous l'autorisez, vous revenez à { $host }.
web-oauth-revocable = Elle ne voit jamais votre mot de passe. Vous pouvez lui retirer l'accès à tout moment dans les réglages (jetons d'API).
web-oauth-allow = Autoriser
web-oauth-refuse = Refuser
web-oauth-invalid = Impossible de répondre à cette demande :
web-token-app = application, réponse envoyée à { $host }
web-chat = Discussion de table
web-chat-empty = Pas encore de message.
web-chat-say = Message à la table
web-chat-send = Envoyer
web-note = Ma note
web-note-hint = Vous seul voyez cette note.
web-note-save = Enregistrer la note
web-note-saved = Note enregistrée.
web-block = Bloquer
web-unblock = Débloquer
web-blocked-now = Vous avez bloqué { $name } : ce joueur ne peut plus vous inviter ni rejoindre vos parties, et vous ne voyez plus vos messages l'un de l'autre.
web-unblocked-now = Vous ne bloquez plus { $name }.
web-unread-messages = { $n ->
    [one] 1 nouveau message
   *[other] { $n } nouveaux messages
}
web-follow = Suivre
web-unfollow = Ne plus suivre
web-followed-now = Vous suivez { $name } : invitez ce joueur quand vous créez une partie.
web-unfollowed-now = Vous ne suivez plus { $name }.
web-invite-friends = Inviter des joueurs que vous suivez
web-report = Signaler
web-report-reason = Pourquoi signalez-vous ceci ?
web-report-send = Envoyer le signalement
web-report-sent = Merci : les modérateurs vont l'examiner.
web-timed-out-games = { $n ->
    [one] A abandonné 1 partie au temps.
   *[other] A abandonné { $n } parties au temps.
}
web-moderation = Modération
web-moderators-only = Cette page est réservée aux modérateurs.
web-open-reports = Signalements ouverts
web-audit-log = Ce que les modérateurs ont fait
web-moderation-reason = Motif (gardé dans le journal)
web-mute-day = Rendre muet un jour
web-suspend-week = Suspendre une semaine
web-dismiss = Classer sans suite
web-bot-account-title = Compte de robot
web-bot-account-intro = Ce compte est-il celui d'un programme qui joue par l'API ? Marquez-le comme robot : il apparaît alors partout comme un robot, accepte les invitations aussitôt et est classé avec sa marque de robot. Seul un compte qui ne s'est jamais assis à une partie peut devenir un robot, et il ne redevient jamais le compte d'une personne.
web-bot-account-sure = J'ai compris : ce compte est un robot pour de bon
web-bot-account-mark = Faire de ce compte un robot
web-bot-account-is = Ce compte est un robot : il joue par l'API et apparaît partout comme un robot.
web-delete-title = Supprimer mon compte
web-delete-intro = La suppression de votre compte est définitive. Vous quittez vos parties ouvertes et abandonnez vos parties en cours (à 3 ou 4 joueurs, un robot prend votre place) ; votre adresse, vos réglages, appareils, jetons, webhooks, notifications et classements sont effacés. Les parties terminées gardent leurs coups et résultats sous un nom neutre à la place du vôtre, et personne ne peut prendre votre nom pendant 30 jours. Téléchargez d'abord vos données si vous voulez les garder.
web-delete-sure = J'ai compris : mon compte est supprimé pour de bon
web-delete-account = Supprimer mon compte
web-account-deleted = Votre compte est supprimé. Au revoir !
web-two-factor-title = Connexion en deux étapes
web-two-factor-off = Désactivée : vous vous connectez avec votre seul mot de passe.
web-two-factor-on = { $n ->
    [one] Activée. Il reste un code de secours.
   *[other] Activée. Il reste { $n } codes de secours.
}
web-two-factor-start = Activer la connexion en deux étapes
web-two-factor-scan = Scannez ce code avec une application d'authentification, ou saisissez-y le secret :
web-two-factor-secret = Secret
web-two-factor-code = Code de l'application
web-two-factor-confirm = Confirmer et activer
web-two-factor-codes = Vos codes de secours : chacun permet une connexion sans votre application. Gardez-les en lieu sûr ; ils ne seront plus affichés.
web-two-factor-disable-code = Code de l'application, ou un code de secours
web-two-factor-disable = Désactiver la connexion en deux étapes
web-login-code = Code de votre application d'authentification (ou un code de secours)
web-email = E-mail
web-email-address = Adresse e-mail
web-save = Enregistrer
web-saved = Enregistré.
web-email-none = Aucune adresse : vous ne recevez pas d'e-mail.
web-email-unverified = Pas encore confirmée : ouvrez le lien envoyé à cette adresse.
web-email-verified = Confirmée.
web-email-bounced = Le serveur de messagerie a refusé cette adresse : rien ne lui est envoyé. Enregistrez-la de nouveau pour réessayer.
web-notices = Notifications
web-notice = Avis
web-channel-email = E-mail
web-channel-push = Push
web-kind-your_turn = À vous de jouer
web-kind-deadline_reminder = Rappels d'échéance
web-kind-invitation = Invitations
web-kind-game_started = Partie commencée
web-kind-game_over = Partie terminée
web-digest = E-mails pour votre tour
web-moves-by-reply = Jouer en répondant : l'e-mail « à vous de jouer » donne votre main et vos choix, et votre réponse est votre coup
web-digest-off = Un par tour
web-digest-every = { $hours ->
    [one] Un résumé toutes les heures
   *[other] Un résumé toutes les { $hours } heures
}
web-notice-language = Langue des e-mails et des notifications
web-vacation = Vacances
web-vacation-left = Reste cette année : { $left } (sur { $days } jours)
web-vacation-until = En vacances jusqu'au { $when }.
web-vacation-start = Partir en vacances
web-vacation-stop = Finir les vacances
web-devices = Appareils connectés
web-device-unknown = Appareil inconnu
web-device-this = cet appareil
web-last-used = dernière utilisation { $when }
web-last-push = dernière notification { $when }
web-sign-out = Déconnecter
web-sign-out-all = Se déconnecter partout
web-tokens = Jetons d'API
web-token-name = Nom du jeton
web-scope-read = Lire
web-scope-play = Jouer
web-scope-email = Réglages e-mail
web-scope-webhooks = Webhooks
web-scope-push = Appareils push
web-scope-organize = Organiser : des parties pour d'autres joueurs, en nombre
web-token-create = Créer un jeton
web-token-new = Copiez ce jeton maintenant : il ne sera plus affiché.
web-revoke = Révoquer
web-revoked = révoqué
web-push-devices = Appareils notifiés
web-push-test = Envoyer un test
web-remove = Retirer

# La table en mots : cases, pions, tuiles, rangées, scores.
web-pawn-of = un pion de { $name }
web-pawn-big-of = le grand pion de { $name }
web-at-start = { $n ->
    [one] { $n } pion au départ
   *[other] { $n } pions au départ
}
web-goal-count = Pions dans la zone d'arrivée : { $n } sur 5
web-pawns = Pions
web-tiles = Tuiles
web-tile-points = { $n ->
    [one] { $n } point
   *[other] { $n } points
}
web-tile-points-any = points (1 à 9)
web-tile-stone = pierre à vœux
web-tile-stone-color = pierre à vœux { $color }
web-tile-clover = trèfle : un pas gratuit
web-tile-discard = tuile de défausse : défausser une carte
web-stone-pile = pierres à vœux { $color } : reste { $n }
web-direction-open = ouverte
web-direction-ascending = croissante
web-direction-descending = décroissante
web-score-parts = Détail du score
web-paths = Chemins
web-gray-path = Chemin gris
# Le formulaire du salon.
web-variant-keltis = Keltis
web-variant-neue-wege = Keltis : Nouveaux chemins, nouveaux buts
web-variant-keltis-card = Keltis : le jeu de cartes
web-bot-for-seat = Robot à la place { $seat }
web-bot-twice = Un robot ne prend qu'une place : choisissez-en un autre.
web-game-title = { $variant } · { $players }
web-log = Coups joués
web-since-your-turn = Depuis votre dernier tour

# Joueurs, profils et classements.
web-leaderboards = Classements
web-leaderboard-of = Classement : { $variant }
web-leaderboard-empty = Pas encore de classement établi : un classement apparaît ici après quelques parties classées.
web-rank = Rang
web-player = Joueur
web-rating = Cote
web-rated-games = Parties classées
web-rating-chart = Historique
web-rating-history = Historique sur { $n } parties : de { $from } à { $to }
web-provisional = provisoire
web-ratings = Classements
web-record = Bilan
web-record-line = { $played } jouées, { $won } gagnées, { $lost } perdues, { $drawn } nulles
web-member-since = Membre depuis le { $when }
web-current-games = Parties en cours
web-finished-games = Parties terminées
web-bot = robot
# The record viewer's steps.
web-first = Début
web-previous = Précédent
web-next = Suivant
web-last = Fin

# Comment jouer.
web-help = Comment jouer
web-help-title = Comment jouer à { $variant }
web-help-rows = Chaque carte posée va dans votre propre rangée de sa couleur. Une rangée monte ou descend : la première carte différente de la première de la rangée fixe le sens pour de bon, et les valeurs égales vont toujours.
web-help-rows-example = Deux rangées : la bleue monte (après 3 et 3, le 6 l'a décidé), la rose descend.
web-help-turn = À votre tour, jouez une carte de votre main : posez-la dans sa rangée, ce qui avance un pion, ou défaussez-la face visible sur la pile de sa couleur. Puis complétez votre main à huit cartes, depuis la pioche ou le dessus d'une pile (pas une carte défaussée à ce tour).
web-help-keltis-goal = Avancez vos cinq pions (un grand, quatre petits) sur les cinq chemins colorés du plateau, récoltez pierres à vœux et points, et ayez le plus haut total à la fin.
web-help-keltis-board = Une carte d'une couleur avance votre pion sur le chemin de cette couleur d'une case, quelle que soit sa valeur ; si vous n'y avez pas de pion, l'un des vôtres quitte le départ pour y aller. Jamais deux de vos pions sur un même chemin.
web-help-keltis-tiles = Les tuiles des chemins : les points comptent tout de suite, un trèfle donne un pas gratuit à l'un de vos pions, une pierre à vœux est à vous. Votre pion sur la dernière pierre d'un chemin, une carte de cette couleur donne un pas gratuit à un autre pion.
web-help-keltis-end = La partie s'arrête dès que le cinquième pion entre dans la zone d'arrivée (les trois rangées du haut), ou quand la dernière carte de la pioche est prise.
web-help-keltis-score = Chaque pion vaut la valeur de sa pierre (le grand pion double, les négatives aussi), plus les points des tuiles, plus les pierres à vœux : aucune -4, une -3, deux 2, trois 3, quatre 6, cinq ou plus 10.
web-help-neue-wege-goal = Les mêmes cartes et rangées, sur un plateau aux chemins qui se croisent : montez vos pions du départ, par des cases de toutes les couleurs, jusqu'aux rangées d'arrivée.
web-help-neue-wege-board = Pour poser une carte d'une couleur, avancez l'un de vos pions (du départ ou d'une case) vers une case suivante de cette couleur, ou vers un joker, qui prend toutes les couleurs. Plusieurs pions peuvent partager une case. Une carte qui n'avance aucun pion ne peut qu'être défaussée.
web-help-neue-wege-tiles = Les tuiles : points (2 ou 3), un trèfle pour un pas gratuit, une pierre à vœux d'une couleur, et « défausser une carte » (de votre main, alors vous piochez une carte de plus, ou la dernière d'une de vos rangées). Les cases de pile donnent la pierre du dessus de leur pile.
web-help-neue-wege-score = Les pions valent la valeur de leur rangée (le grand double), plus les points des tuiles, plus les pierres à vœux selon le nombre de couleurs (aucune -4 jusqu'à cinq couleurs 10), et 10 de plus par couleur détenue trois fois.
web-help-card-goal = Un jeu à deux : posez de longues rangées de cartes en cinq couleurs, récoltez des pierres à vœux, et ayez le plus haut total à la fin.
web-help-card-gray = Les cartes grises vont sur une de vos rangées dont la dernière carte a la même valeur, ou sur votre rangée grise dans n'importe quel ordre, un point chacune. Une carte de fin ferme la rangée de sa couleur : seule l'autre carte de fin de cette couleur peut suivre.
web-help-card-stones = Au lieu de jouer une carte, défaussez deux cartes de même valeur (1 à 9) tant que cette pierre à vœux est libre : prenez-la, et piochez deux cartes.
web-help-card-turn = À votre tour, posez une carte ou défaussez-la, puis piochez-en une, depuis la pioche ou le dessus d'une pile.
web-help-card-end = Quand la dernière carte de la pioche est prise, ou quand cinq des dix rangées de couleur sont fermées, chaque joueur joue encore deux cartes sans piocher.
web-help-card-score = Chaque rangée compte selon sa longueur : une carte -4, deux -3, trois -2, quatre 1, cinq 2, six 3, sept 6, huit 7, neuf ou plus 10. La rangée grise vaut un point par carte ; les pierres à vœux selon leur nombre.
web-help-board-caption = Le plateau : le départ est sous la rangée du bas, les rangées d'arrivée en haut, et chaque case montre sa valeur.
# Why a card cannot be played; what may follow on a row.
web-why-wait = Ce n'est pas votre tour : les cartes attendent.
web-why-draw = Piochez d'abord : une carte de la pioche ou d'une défausse.
web-why-finish = Terminez d'abord le coup (un pas gratuit ou le choix d'une tuile).
web-why-rising = Votre rangée { $color } monte depuis { $last } : cette carte est plus basse, elle ne peut qu'être défaussée.
web-why-falling = Votre rangée { $color } descend depuis { $last } : cette carte est plus haute, elle ne peut qu'être défaussée.
web-why-closed = Votre rangée { $color } est fermée par sa carte de fin : cette carte ne peut qu'être défaussée.
web-why-no-space = Aucun de vos pions ne peut atteindre une case { $color } : cette carte ne peut qu'être défaussée.
web-why-no-lay = Cette carte { $color } ne peut pas être posée maintenant : elle ne peut qu'être défaussée.
web-next-up = ensuite : { $last } ou plus
web-next-down = ensuite : { $last } ou moins
# Moves confirmed by a second tap.
web-tap-again = Touchez-le encore pour confirmer.
web-confirm-move = Confirmer : { $move }
web-confirm-moves = Toucher une seconde fois pour confirmer chaque coup
web-this-device = Cet appareil

# Play now and rematches (web client)
web-play-now = Jouer maintenant
web-pn-intro = Dites à quoi vous voulez jouer : le serveur vous installe avec les prochains joueurs qui veulent la même partie et vous prévient quand elle commence.
web-pn-seats = { $sizes } joueurs
web-casual = Amicale
web-cancel = Annuler
web-pn-bot = Un robot prend les places vides
web-pn-bot-never = jamais
web-pn-bot-after = après { $wait }
web-pn-searching = { $n ->
    [one] Recherche de joueurs…
   *[other] Recherche de joueurs ({ $n } demandes)…
}
web-pn-waited = en attente depuis { $wait }
web-rematch-offer = Proposer une revanche
web-rematch-waiting = Revanche proposée : en attente de { $names }
web-rematch-from = { $by } propose une revanche
web-rematch-accept = Accepter la revanche
web-rematch-decline = Refuser
web-rematch-withdraw = Retirer la proposition
web-rematch-started = La revanche : partie n° { $id }
web-rematch-declined = { $by } a refusé la revanche
web-rematch-lapsed = La proposition de revanche a expiré
web-challenge-share = Partager un lien vers cette partie
web-challenge-link = Le lien : le premier qui l'ouvre prend une place
web-challenge-copied = Lien copié
web-challenge-joining = Installation à la table…
web-events = Tournois
web-events-registering = Inscriptions ouvertes
web-events-running = En cours
web-events-finished = Terminés
web-events-none = Aucun pour le moment.
web-event-swiss = Système suisse
web-event-round_robin = Toutes rondes
web-event-table = { $size } par table
web-event-entered-count = { $count } inscrits sur { $max }
web-event-starts = commence le { $when }
web-event-when-full = commence une fois complet
web-event-round-of = ronde { $round } sur { $rounds }
web-event-state-finished = terminé
web-event-state-cancelled = annulé
web-event-state-registering = inscriptions ouvertes
web-event-state-running = en cours
web-event-make = Créer un tournoi
web-event-name = Nom
web-event-format = Formule
web-event-table-size = Joueurs par table
web-event-rounds = Rondes (suisse)
web-event-max-players = Joueurs au plus
web-event-start = Début
web-event-start-hint = Laissez le début vide pour commencer dès que le tournoi est complet.
web-event-opens-at = Inscriptions à partir du
web-event-opens-hint = Laissez vide pour ouvrir les inscriptions tout de suite.
web-event-opens = inscriptions à partir du { $when }
web-event-create = Créer le tournoi
web-event-enter = S'inscrire
web-event-entered = Vous êtes inscrit.
web-event-withdraw = Se retirer
web-event-withdraw-confirm = Vous retirer de ce tournoi ? Vos parties en cours seront abandonnées.
web-event-withdrawn = Vous vous êtes retiré.
web-event-withdrawn-mark = retiré
web-event-your-game = Votre partie de la ronde { $round }
web-event-standings = Classement
web-event-crosstable = Grille
web-event-rounds-heading = Rondes
web-event-round = Ronde { $round }
web-event-game-playing = en cours
web-event-game-over = terminée
web-event-bye-of = { $name } : exempt ({ $points })
web-event-bye-short = exempt ({ $points })
web-event-place = Place
web-event-player = Joueur
web-event-points = Points
web-event-tie-breaks = Départages
web-tb-buchholz = Buchholz
web-tb-sonneborn_berger = Sonneborn-Berger
web-tb-opponents_points = Points des adversaires
web-tb-placings = Places
web-ladder-title = Échelle : { $variant }
web-ladder-rules = Entrez en bas ; défiez un joueur jusqu'à deux cinquièmes de votre échelon au-dessus. Gagnez en défiant et vous prenez son échelon. Trois défis lancés et trois reçus au plus ; qui laisse filer son temps quitte l'échelle.
web-ladder-join = Rejoindre l'échelle
web-ladder-joined = Vous êtes sur l'échelle.
web-ladder-leave = Quitter l'échelle
web-ladder-rung = Échelon
web-ladder-open = Défis lancés / reçus
web-ladder-challenge = Défier
web-ladder-challenges = Défis de la semaine
web-ladder-challenge-of = { $challenger } défie { $defender }
web-ladder-outcome-climbed = a grimpé
web-ladder-outcome-held = a tenu
web-ladder-outcome-timed_out = perdu au temps
web-ladders = Échelles

## The command line at the table
web-command-title = Ligne de commande
web-command-label = Tapez un coup ou une question
web-command-send = Valider
web-command-hint = Un coup en mots (« pose bleu 4 », « pioche », le numéro d'un choix, ou plusieurs : « 3 puis pioche »), ou une question : main, rangées, plateau, scores, derniers coups, temps restant, plan. Pendant que les autres jouent, « plan: 3 puis pioche » prépare votre prochain tour (« plan: annuler » l'annule).
web-ask-hand = main|ma main|cartes
web-ask-rows = rangées|rangees|chemins
web-ask-board = plateau|pions
web-ask-scores = scores|score|points
web-ask-moves = derniers coups|coups
web-ask-time = temps restant|temps|pendule
web-answer-hand = Votre main : { $cards }
web-answer-no-hand = Votre main est vide.
web-answer-rows = { $name } : { $rows }
web-answer-none = aucune
web-answer-no-board = Cette partie n'a pas de plateau.
web-answer-pawns = { $name } : { $pawns }
web-answer-start = départ
web-answer-score = { $name } : { $score } points
web-answer-no-moves = Aucun coup pour l'instant.
web-answer-no-clock = Cette partie n'a pas de pendule.
web-answer-time = { $name } : il reste { $left }
web-answer-not-seated = Seuls les joueurs de cette partie peuvent y jouer.
web-answer-choices = Vos choix :
web-ask-plan = plan|mon plan
web-plan-drop = annuler|aucun
web-answer-plan-kept = Votre plan pour votre prochain tour :
web-answer-no-plan = Aucun plan n'attend votre prochain tour.
web-answer-plan-dropped = Votre plan est annulé.
web-answer-plan-played = Votre dernier plan a été joué ({ $steps } étapes).
web-answer-plan-not-played = Votre dernier plan n'a pas été joué : { $reason }.
web-plan-title = Préparer mon prochain tour
web-plan-start = Choisir ses étapes
web-plan-hint = Pendant que les autres jouent, choisissez les étapes de votre prochain tour : elles seront jouées dès qu'il commencera, si chaque étape est encore possible. Voici les choix qu'il offrira si les autres ne changent rien ; votre main est celle ci-dessus.
web-plan-turn-ends = Votre tour s'arrête là.
web-plan-conditions = Le jouer seulement si
web-plan-if-piles_unchanged = les défausses où il pioche montrent encore les mêmes cartes
web-plan-if-spaces_unchanged = les cases que ses pions atteignent portent encore ce qu'elles portent
web-plan-keep = Garder ce plan
web-plan-clear = Recommencer
web-plan-then = puis
web-plan-waiting = Votre plan pour votre prochain tour :
web-plan-or-else = sinon :
web-plan-drop-button = Annuler le plan
web-plan-dropped = Le plan est annulé.
web-plan-kept = Le plan est gardé : il sera joué quand votre tour viendra.

## The text-first table
web-text-table-link = Table en texte (lecteurs d'écran et clavier)
web-text-table-title = { $variant } avec { $players } : table en texte
web-board-view-link = Retour au plateau
web-text-score = score { $score }
web-text-seat-to-act = { $name } (au trait)
web-text-pile = défausse { $color } : { $top } dessus, { $n } cartes
web-text-players = Joueurs
web-text-table-piles = Pioche et défausses
web-text-last-moves = Derniers coups
web-you = vous

# Plans du prochain tour : pourquoi un plan n'a pas été joué (dit avec le tour).
plan-not-played = Votre plan n'a pas été joué : { $reason }.
plan-pile-empty = rien
plan-miss-pile-changed = la défausse { $color } montre { $now } au lieu de { $was }
plan-miss-space-changed = ce qui était sur { $space } n'y est plus
plan-miss-step-refused = l'étape { $step } n'est plus possible
plan-miss-turn-over = votre tour s'est terminé avant l'étape { $step }
plan-miss-game-over = la partie est finie, ou vous l'avez quittée
plan-miss-played-yourself = vous avez joué ce tour vous-même
plan-miss-not-turn-start = ce n'était pas le début de votre tour
plan-miss-deadline = votre temps était écoulé
