//! The bad-input scenarios (common/scenarios.rs) on a fresh SQLite file each.

mod common;

use common::{Api, scenarios};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_json_and_missing_fields_are_422_and_write_nothing() {
    scenarios::malformed_json_and_missing_fields_are_422_and_write_nothing(&Api::sqlite().await)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ten_megabyte_body_is_413_and_writes_nothing() {
    scenarios::a_ten_megabyte_body_is_413_and_writes_nothing(&Api::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_and_expired_tokens_are_401_and_write_nothing() {
    scenarios::invalid_and_expired_tokens_are_401_and_write_nothing(&Api::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sql_metacharacters_are_stored_verbatim_in_every_field() {
    scenarios::sql_metacharacters_are_stored_verbatim_in_every_field(&Api::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_colliding_slug_is_422_and_writes_nothing() {
    scenarios::a_colliding_slug_is_422_and_writes_nothing(&Api::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn others_get_403_unknown_things_404_and_nothing_changes() {
    scenarios::others_get_403_unknown_things_404_and_nothing_changes(&Api::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn feed_and_pagination_follow_the_spec() {
    scenarios::feed_and_pagination_follow_the_spec(&Api::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browsers_on_other_origins_may_call_the_api() {
    scenarios::browsers_on_other_origins_may_call_the_api(&Api::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_for_a_user_the_database_lacks_is_401() {
    scenarios::a_token_for_a_user_the_database_lacks_is_401(&Api::sqlite().await).await;
}
