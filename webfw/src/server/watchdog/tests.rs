use super::*;

const LIMITS: Limits = Limits {
    header: TICKS,
    keep_alive: 2,
    request: 3 * TICKS,
};

fn watched(activity: &Arc<Activity>, conn: &tokio::task::JoinHandle<()>) -> Watched {
    let mut w = Watched::new(activity.clone());
    w.conn = Some(conn.abort_handle());
    w
}

#[tokio::test]
async fn a_quiet_new_connection_is_closed_with_408_after_the_header_timeout() {
    let activity = Arc::new(Activity::default());
    let conn = tokio::spawn(std::future::pending::<()>());
    let mut w = watched(&activity, &conn);
    // The first tick only notes the count; the next TICKS find it quiet.
    for _ in 0..TICKS {
        assert!(w.tick(LIMITS));
    }
    assert!(!w.tick(LIMITS));
    assert!(conn.await.unwrap_err().is_cancelled());
    assert!(activity.send_408.load(Ordering::Relaxed));
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_quietly_after_its_timeout() {
    let activity = Arc::new(Activity::default());
    let conn = tokio::spawn(std::future::pending::<()>());
    let mut w = watched(&activity, &conn);
    drop(InFlight::new(&activity));
    for _ in 0..LIMITS.keep_alive {
        assert!(w.tick(LIMITS));
    }
    assert!(!w.tick(LIMITS));
    assert!(conn.await.unwrap_err().is_cancelled());
    assert!(!activity.send_408.load(Ordering::Relaxed));
}

#[tokio::test]
async fn a_request_in_flight_keeps_the_connection() {
    let activity = Arc::new(Activity::default());
    let conn = tokio::spawn(std::future::pending::<()>());
    let mut w = watched(&activity, &conn);
    let request = InFlight::new(&activity);
    for _ in 0..10 * TICKS {
        assert!(w.tick(LIMITS));
    }
    drop(request);
    // The tick that saw it in flight already noted the count.
    for _ in 0..LIMITS.keep_alive - 1 {
        assert!(w.tick(LIMITS));
    }
    assert!(!w.tick(LIMITS));
    assert!(conn.await.unwrap_err().is_cancelled());
}

#[tokio::test]
async fn a_request_with_a_body_unanswered_past_the_request_timeout_gets_408() {
    let activity = Arc::new(Activity::default());
    let conn = tokio::spawn(std::future::pending::<()>());
    let mut w = watched(&activity, &conn);
    let _request = InFlight::with_body(&activity);
    for _ in 0..LIMITS.request {
        assert!(w.tick(LIMITS));
    }
    assert!(!w.tick(LIMITS));
    assert!(conn.await.unwrap_err().is_cancelled());
    assert!(activity.send_408.load(Ordering::Relaxed));
}

#[tokio::test]
async fn a_body_still_coming_after_the_answer_is_cut_off_without_408() {
    let activity = Arc::new(Activity::default());
    let conn = tokio::spawn(std::future::pending::<()>());
    let mut w = watched(&activity, &conn);
    let mut request = InFlight::with_body(&activity);
    request.answered();
    for _ in 0..LIMITS.request {
        assert!(w.tick(LIMITS));
    }
    assert!(!w.tick(LIMITS));
    assert!(conn.await.unwrap_err().is_cancelled());
    assert!(!activity.send_408.load(Ordering::Relaxed));
}

#[tokio::test]
async fn an_answered_request_whose_body_arrived_may_stream_on() {
    let activity = Arc::new(Activity::default());
    let conn = tokio::spawn(std::future::pending::<()>());
    let mut w = watched(&activity, &conn);
    let mut request = InFlight::with_body(&activity);
    request.answered();
    activity.arrived();
    for _ in 0..10 * LIMITS.request {
        assert!(w.tick(LIMITS));
    }
    drop(request);
    conn.abort();
}

#[tokio::test]
async fn requests_that_keep_coming_keep_the_connection() {
    let activity = Arc::new(Activity::default());
    let conn = tokio::spawn(std::future::pending::<()>());
    let mut w = watched(&activity, &conn);
    for _ in 0..20 {
        for _ in 0..LIMITS.keep_alive - 1 {
            assert!(w.tick(LIMITS));
        }
        drop(InFlight::new(&activity));
    }
    assert!(w.tick(LIMITS));
    assert!(!conn.is_finished());
    conn.abort();
}

#[tokio::test]
async fn a_finished_connection_leaves_the_list_and_frees_its_task() {
    let watchdog = Watchdog::start(Deadlines {
        header: Duration::from_secs(3600),
        keep_alive: Duration::from_secs(3600),
        request: None,
    });
    let listed = watchdog.watch(Arc::new(Activity::default()));
    let id = listed.id();
    let conn = tokio::spawn(async move { drop(listed) });
    watchdog.attach(id, conn.abort_handle());
    conn.await.unwrap();
    // Before any tick: the list holds nothing of the finished task.
    assert_eq!(watchdog.len(), 0);
    // A task that ends before it is attached is not listed either.
    let listed = watchdog.watch(Arc::new(Activity::default()));
    let id = listed.id();
    drop(listed);
    let conn = tokio::spawn(async {});
    watchdog.attach(id, conn.abort_handle());
    assert_eq!(watchdog.len(), 0);
}

#[tokio::test]
async fn the_watchdog_task_aborts_a_quiet_connection() {
    let watchdog = Watchdog::start(Deadlines {
        header: Duration::from_millis(40),
        keep_alive: Duration::from_millis(40),
        request: None,
    });
    let listed = watchdog.watch(Arc::new(Activity::default()));
    let id = listed.id();
    let conn = tokio::spawn(async move {
        let _listed = listed;
        std::future::pending::<()>().await
    });
    watchdog.attach(id, conn.abort_handle());
    let ended = tokio::time::timeout(Duration::from_secs(30), conn).await;
    assert!(
        ended
            .expect("the watchdog aborts the task")
            .unwrap_err()
            .is_cancelled()
    );
    assert_eq!(watchdog.len(), 0);
}

#[test]
fn deadlines_are_counted_in_ticks_of_the_shortest() {
    let (period, limits) = Deadlines {
        header: Duration::from_secs(60),
        keep_alive: Duration::from_secs(5),
        request: Some(Duration::from_secs(300)),
    }
    .ticks();
    assert_eq!(period, Duration::from_millis(1250));
    assert_eq!(
        (limits.header, limits.keep_alive, limits.request),
        (48, 4, 240)
    );
}
