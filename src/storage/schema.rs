//! Tables, in portable column types (BigInt, Integer, Text, Bool) shared by both backends.

diesel::table! {
    users (id) {
        id -> BigInt,
        name -> Text,
        password_hash -> Text,
        is_bot -> Bool,
        created_at -> BigInt,
        deleted_at -> Nullable<BigInt>,
        held_name_mac -> Nullable<Text>,
        outside_bot -> Bool,
        timeouts -> Integer,
        moderator -> Bool,
        muted_until -> Nullable<BigInt>,
        suspended_until -> Nullable<BigInt>,
        last_timeout_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    refresh_tokens (token_hash) {
        token_hash -> Text,
        user_id -> BigInt,
        expires_at -> BigInt,
        used -> Bool,
        session_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    sessions (id) {
        id -> BigInt,
        user_id -> BigInt,
        user_agent -> Nullable<Text>,
        created_at -> BigInt,
        last_used_at -> BigInt,
        revoked_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    api_tokens (id) {
        id -> BigInt,
        user_id -> BigInt,
        name -> Text,
        token_hash -> Text,
        scopes -> Text,
        created_at -> BigInt,
        last_used_at -> Nullable<BigInt>,
        revoked_at -> Nullable<BigInt>,
        client_id -> Nullable<Text>,
        redirect_host -> Nullable<Text>,
    }
}

diesel::table! {
    games (id) {
        id -> BigInt,
        variant -> Text,
        players -> Integer,
        status -> Text,
        invite_only -> Bool,
        created_by -> BigInt,
        created_at -> BigInt,
        updated_at -> BigInt,
        version -> BigInt,
        state -> Nullable<Text>,
        state_engine_version -> Integer,
        to_act_user -> Nullable<BigInt>,
        clock -> Nullable<Text>,
        deadline_at -> Nullable<BigInt>,
        reminder_at -> Nullable<BigInt>,
        rated -> Bool,
        state_version -> BigInt,
    }
}

diesel::table! {
    game_seats (game_id, seat) {
        game_id -> BigInt,
        seat -> Integer,
        user_id -> BigInt,
    }
}

diesel::table! {
    game_invites (game_id, user_id) {
        game_id -> BigInt,
        user_id -> BigInt,
    }
}

diesel::table! {
    game_events (game_id, seq) {
        game_id -> BigInt,
        seq -> BigInt,
        kind -> Text,
        payload -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    game_archives (game_id) {
        game_id -> BigInt,
        events -> Binary,
        archived_at -> BigInt,
    }
}

diesel::table! {
    idempotency_keys (user_id, key) {
        user_id -> BigInt,
        key -> Text,
        request_hash -> Text,
        status -> Integer,
        body -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    vacations (id) {
        id -> BigInt,
        user_id -> BigInt,
        started_at -> BigInt,
        ends_at -> BigInt,
        ended_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    notifications (id) {
        id -> BigInt,
        user_id -> BigInt,
        kind -> Text,
        game_id -> Nullable<BigInt>,
        payload -> Text,
        dedup_key -> Text,
        created_at -> BigInt,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> BigInt,
        sent_at -> Nullable<BigInt>,
        last_error -> Nullable<Text>,
    }
}

diesel::table! {
    mail_settings (user_id) {
        user_id -> BigInt,
        email -> Nullable<Text>,
        verified_at -> Nullable<BigInt>,
        bounced_at -> Nullable<BigInt>,
        language -> Text,
        your_turn -> Bool,
        deadline_reminder -> Bool,
        invitation -> Bool,
        game_started -> Bool,
        game_over -> Bool,
        digest_hours -> Nullable<Integer>,
        last_digest_at -> Nullable<BigInt>,
        push_your_turn -> Bool,
        push_deadline_reminder -> Bool,
        push_invitation -> Bool,
        push_game_started -> Bool,
        push_game_over -> Bool,
        moves_by_reply -> Bool,
    }
}

diesel::table! {
    inbound_mails (message_hash) {
        message_hash -> Text,
        user_id -> BigInt,
        game_id -> BigInt,
        received_at -> BigInt,
        outcome -> Text,
    }
}

diesel::table! {
    server_secrets (name) {
        name -> Text,
        sealed -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    webhooks (id) {
        id -> BigInt,
        user_id -> BigInt,
        url -> Text,
        kinds -> Text,
        secret -> Text,
        created_at -> BigInt,
        failures -> Integer,
        disabled_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    webhook_deliveries (id) {
        id -> BigInt,
        webhook_id -> BigInt,
        notification_id -> BigInt,
        kind -> Text,
        payload -> Text,
        created_at -> BigInt,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> BigInt,
    }
}

diesel::table! {
    push_subscriptions (id) {
        id -> BigInt,
        user_id -> BigInt,
        endpoint -> Text,
        p256dh -> Text,
        auth -> Text,
        user_agent -> Nullable<Text>,
        created_at -> BigInt,
        last_success_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    push_deliveries (id) {
        id -> BigInt,
        subscription_id -> BigInt,
        notification_id -> BigInt,
        kind -> Text,
        payload -> Text,
        created_at -> BigInt,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> BigInt,
        last_error -> Nullable<Text>,
    }
}

diesel::table! {
    webhook_attempts (id) {
        id -> BigInt,
        delivery_id -> BigInt,
        webhook_id -> BigInt,
        attempted_at -> BigInt,
        status_code -> Nullable<Integer>,
        error -> Nullable<Text>,
        succeeded -> Bool,
    }
}

diesel::table! {
    ratings (user_id, variant) {
        user_id -> BigInt,
        variant -> Text,
        rating -> Double,
        deviation -> Double,
        volatility -> Double,
        games -> Integer,
        last_rated_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    game_results (id) {
        id -> BigInt,
        game_id -> BigInt,
        seat -> Integer,
        user_id -> BigInt,
        variant -> Text,
        players -> Integer,
        rated -> Bool,
        ended_at -> BigInt,
        total -> Integer,
        place -> Integer,
        outcome -> Text,
        rating_before -> Nullable<Double>,
        deviation_before -> Nullable<Double>,
        volatility_before -> Nullable<Double>,
        rating_after -> Nullable<Double>,
        deviation_after -> Nullable<Double>,
        volatility_after -> Nullable<Double>,
    }
}

diesel::table! {
    password_resets (id) {
        id -> BigInt,
        user_id -> BigInt,
        token_hash -> Text,
        created_at -> BigInt,
        expires_at -> BigInt,
        used_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    two_factor (user_id) {
        user_id -> BigInt,
        secret -> Text,
        confirmed_at -> Nullable<BigInt>,
        last_step -> BigInt,
        created_at -> BigInt,
    }
}

diesel::table! {
    recovery_codes (id) {
        id -> BigInt,
        user_id -> BigInt,
        code_hash -> Text,
        used_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    account_erasures (user_id) {
        user_id -> BigInt,
        former_name -> Text,
        placeholder -> Text,
        started_at -> BigInt,
        claimed_until -> BigInt,
    }
}

diesel::table! {
    oauth_codes (id) {
        id -> BigInt,
        code_hash -> Text,
        user_id -> BigInt,
        client_id -> Text,
        redirect_uri -> Text,
        scopes -> Text,
        code_challenge -> Text,
        created_at -> BigInt,
        expires_at -> BigInt,
        used_at -> Nullable<BigInt>,
        token_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    chat_messages (id) {
        id -> BigInt,
        game_id -> BigInt,
        user_id -> BigInt,
        seat -> Integer,
        body -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    chat_reads (game_id, user_id) {
        game_id -> BigInt,
        user_id -> BigInt,
        last_read -> BigInt,
    }
}

diesel::table! {
    game_notes (game_id, user_id) {
        game_id -> BigInt,
        user_id -> BigInt,
        body -> Text,
        updated_at -> BigInt,
    }
}

diesel::table! {
    blocks (user_id, blocked_id) {
        user_id -> BigInt,
        blocked_id -> BigInt,
        created_at -> BigInt,
    }
}

diesel::table! {
    follows (user_id, followed_id) {
        user_id -> BigInt,
        followed_id -> BigInt,
        created_at -> BigInt,
    }
}

diesel::table! {
    reports (id) {
        id -> BigInt,
        reporter_id -> BigInt,
        user_id -> BigInt,
        message_id -> Nullable<BigInt>,
        game_id -> Nullable<BigInt>,
        reason -> Text,
        created_at -> BigInt,
        status -> Text,
        handled_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    moderation_actions (id) {
        id -> BigInt,
        moderator_id -> BigInt,
        action -> Text,
        user_id -> Nullable<BigInt>,
        report_id -> Nullable<BigInt>,
        reason -> Text,
        until_at -> Nullable<BigInt>,
        created_at -> BigInt,
    }
}

diesel::joinable!(game_seats -> games (game_id));
diesel::joinable!(mail_settings -> users (user_id));
diesel::joinable!(ratings -> users (user_id));
diesel::joinable!(game_results -> users (user_id));
diesel::joinable!(webhook_deliveries -> webhooks (webhook_id));
diesel::joinable!(push_deliveries -> push_subscriptions (subscription_id));
diesel::joinable!(game_seats -> users (user_id));
diesel::table! {
    pairing_requests (id) {
        id -> BigInt,
        user_id -> BigInt,
        variant -> Text,
        seats -> Text,
        time_control -> Text,
        rated -> Bool,
        rating_below -> Nullable<Integer>,
        rating_above -> Nullable<Integer>,
        bot_after_ms -> Nullable<BigInt>,
        filed_at -> BigInt,
        expires_at -> BigInt,
        state -> Text,
        game_id -> Nullable<BigInt>,
        closed_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    rematches (game_id) {
        game_id -> BigInt,
        offered_by -> Integer,
        accepted -> Text,
        state -> Text,
        offered_at -> BigInt,
        expires_at -> BigInt,
        new_game_id -> Nullable<BigInt>,
        declined_by -> Nullable<Integer>,
        closed_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    events (id) {
        id -> BigInt,
        name -> Text,
        format -> Text,
        variant -> Text,
        table_size -> Integer,
        time_control -> Text,
        rated -> Bool,
        rounds -> Integer,
        group_size -> Nullable<Integer>,
        points_by_place -> Text,
        bye_points -> BigInt,
        min_players -> Integer,
        max_players -> Integer,
        rating_min -> Nullable<Integer>,
        rating_max -> Nullable<Integer>,
        min_finished_games -> Integer,
        no_timeouts_days -> Nullable<Integer>,
        late_entry_until -> Integer,
        round_hours -> Nullable<Integer>,
        starts_at -> Nullable<BigInt>,
        repeat_every_days -> Nullable<Integer>,
        next_edition_id -> Nullable<BigInt>,
        created_by -> Nullable<BigInt>,
        state -> Text,
        current_round -> Integer,
        round_started_at -> Nullable<BigInt>,
        seed -> BigInt,
        created_at -> BigInt,
        started_at -> Nullable<BigInt>,
        finished_at -> Nullable<BigInt>,
        registration_opens_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    event_entries (id) {
        id -> BigInt,
        event_id -> BigInt,
        user_id -> BigInt,
        rating -> Double,
        entered_at -> BigInt,
        withdrawn_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    event_pairings (event_id, round, slot, entry_id) {
        event_id -> BigInt,
        round -> Integer,
        slot -> Integer,
        entry_id -> BigInt,
        game_id -> Nullable<BigInt>,
        seat -> Nullable<Integer>,
        bye_points -> Nullable<BigInt>,
        full_bye -> Bool,
    }
}

diesel::table! {
    ladder_rungs (variant, user_id) {
        variant -> Text,
        user_id -> BigInt,
        rung -> Integer,
        joined_at -> BigInt,
    }
}

diesel::table! {
    ladder_challenges (id) {
        id -> BigInt,
        variant -> Text,
        challenger_id -> BigInt,
        defender_id -> BigInt,
        game_id -> BigInt,
        state -> Text,
        outcome -> Nullable<Text>,
        created_at -> BigInt,
        decided_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    bulk_pairings (id) {
        id -> BigInt,
        organiser_id -> BigInt,
        variant -> Text,
        rated -> Bool,
        time_control -> Text,
        starts_at -> BigInt,
        state -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    bulk_seats (bulk_id, slot, seat) {
        bulk_id -> BigInt,
        slot -> Integer,
        seat -> Integer,
        user_id -> BigInt,
        game_id -> Nullable<BigInt>,
    }
}

diesel::joinable!(game_events -> games (game_id));
diesel::joinable!(game_archives -> games (game_id));
diesel::joinable!(chat_messages -> users (user_id));
diesel::joinable!(turn_plans -> games (game_id));

diesel::table! {
    game_reviews (game_id) {
        game_id -> BigInt,
        requested_at -> BigInt,
        claimed_until -> BigInt,
        attempts -> Integer,
        done_at -> Nullable<BigInt>,
        review -> Nullable<Text>,
        failure -> Nullable<Text>,
    }
}

diesel::table! {
    review_accuracies (game_id, user_id) {
        game_id -> BigInt,
        user_id -> BigInt,
        variant -> Text,
        accuracy -> Double,
    }
}

diesel::table! {
    turn_plans (game_id, user_id) {
        game_id -> BigInt,
        user_id -> BigInt,
        seat -> Integer,
        made_on -> BigInt,
        made_at -> BigInt,
        plan -> Text,
    }
}

diesel::table! {
    plan_outcomes (id) {
        id -> BigInt,
        game_id -> BigInt,
        user_id -> BigInt,
        version -> BigInt,
        alternative -> Nullable<Integer>,
        steps -> Integer,
        code -> Nullable<Text>,
        reason -> Nullable<Text>,
        at -> BigInt,
    }
}

diesel::table! {
    name_changes (id) {
        id -> Integer,
        generation -> BigInt,
    }
}

diesel::allow_tables_to_appear_in_same_query!(
    users,
    refresh_tokens,
    sessions,
    api_tokens,
    games,
    game_seats,
    game_invites,
    game_events,
    game_archives,
    idempotency_keys,
    vacations,
    notifications,
    mail_settings,
    inbound_mails,
    server_secrets,
    webhooks,
    webhook_deliveries,
    webhook_attempts,
    push_subscriptions,
    push_deliveries,
    ratings,
    game_results,
    password_resets,
    two_factor,
    recovery_codes,
    account_erasures,
    game_reviews,
    review_accuracies,
    turn_plans,
    plan_outcomes,
    name_changes,
    oauth_codes,
    chat_messages,
    chat_reads,
    game_notes,
    blocks,
    follows,
    reports,
    moderation_actions,
    pairing_requests,
    rematches,
    events,
    event_entries,
    event_pairings,
    ladder_rungs,
    ladder_challenges,
    bulk_pairings,
    bulk_seats,
);
