//! Conversions are CPU-bound: they run on blocking threads, at most `workers` at once, with
//! a bounded line of callers waiting. A full line is answered at once (503 + Retry-After)
//! rather than letting requests pile up behind work that cannot finish in time, and a
//! caller in the line waits at most `max_wait` for a worker (503 + Retry-After again): a
//! place in the line is no promise of a worker, only of a bounded wait for one.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

/// What a refused caller is told to wait before trying again.
const RETRY_AFTER: Duration = Duration::from_secs(2);

pub struct Queue {
    workers: usize,
    permits: Arc<Semaphore>,
    waiting: AtomicUsize,
    max_waiting: usize,
    max_wait: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    #[error("the conversion queue is full; try again in {} s", retry_after.as_secs())]
    Full { retry_after: Duration },
    #[error("no conversion worker became free within {} s; try again in {} s", waited.as_secs_f64(), retry_after.as_secs())]
    Busy {
        waited: Duration,
        retry_after: Duration,
    },
    #[error("the conversion did not finish within {} s", .0.as_secs_f64())]
    TimedOut(Duration),
    #[error("the conversion worker failed: {0}")]
    Worker(String),
}

/// A place in the line, given up however the wait ends: a worker, the wait's timeout, or
/// the caller going away (its future dropped mid-wait, e.g. the client disconnected), which
/// would otherwise leave the waiting count, and the gauge read from it, one too high.
struct InLine<'q>(&'q AtomicUsize);

impl Drop for InLine<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Queue {
    /// `max_wait`: how long a caller may wait for a worker before it is refused.
    pub fn new(workers: usize, max_waiting: usize, max_wait: Duration) -> Queue {
        Queue {
            workers: workers.max(1),
            permits: Arc::new(Semaphore::new(workers.max(1))),
            waiting: AtomicUsize::new(0),
            max_waiting,
            max_wait,
        }
    }

    /// Conversions running now, and callers waiting for a worker.
    pub fn load(&self) -> (usize, usize) {
        (
            self.workers
                .saturating_sub(self.permits.available_permits()),
            self.waiting.load(Ordering::SeqCst),
        )
    }

    /// Runs `work` on a blocking thread once a worker is free. `limit` bounds the wait for
    /// the result; the sandbox's own deadline stops the work itself by then (it bounds
    /// every host call a guest can block in too, see `Sandbox::call`).
    pub async fn run<R: Send + 'static>(
        &self,
        limit: Duration,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, QueueError> {
        let permit = match self.permits.clone().try_acquire_owned() {
            Ok(p) => p,
            Err(_) => {
                if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.max_waiting {
                    self.waiting.fetch_sub(1, Ordering::SeqCst);
                    return Err(QueueError::Full {
                        retry_after: RETRY_AFTER,
                    });
                }
                let in_line = InLine(&self.waiting);
                let acquired =
                    tokio::time::timeout(self.max_wait, self.permits.clone().acquire_owned()).await;
                drop(in_line);
                match acquired {
                    Ok(p) => p.map_err(|e| QueueError::Worker(e.to_string()))?,
                    Err(_) => {
                        return Err(QueueError::Busy {
                            waited: self.max_wait,
                            retry_after: RETRY_AFTER,
                        })
                    }
                }
            }
        };
        // The permit travels with the work and is dropped with the closure however it ends
        // (a result, a panic unwinding, or a runtime that never ran it): a timed-out call
        // still holds its worker until the sandbox has actually stopped it, and no longer.
        let task = tokio::task::spawn_blocking(move || {
            let result = work();
            drop(permit);
            result
        });
        match tokio::time::timeout(limit, task).await {
            Ok(Ok(r)) => Ok(r),
            Ok(Err(e)) => Err(QueueError::Worker(e.to_string())),
            Err(_) => Err(QueueError::TimedOut(limit)),
        }
    }

    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_line_is_refused_at_once() {
        let q = Arc::new(Queue::new(1, 1, Duration::from_secs(5)));
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let busy = {
            let q = q.clone();
            tokio::spawn(async move { q.run(Duration::from_secs(5), move || rx.recv().ok()).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        let waiting = {
            let q = q.clone();
            tokio::spawn(async move { q.run(Duration::from_secs(5), || 2).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(q.waiting(), 1);
        let refused = q.run(Duration::from_secs(5), || 3).await;
        assert!(
            matches!(refused, Err(QueueError::Full { .. })),
            "{refused:?}"
        );
        tx.send(()).unwrap();
        assert!(busy.await.unwrap().is_ok());
        assert_eq!(waiting.await.unwrap().unwrap(), 2);
    }

    #[tokio::test]
    async fn a_caller_waits_for_a_worker_no_longer_than_its_bound() {
        let q = Arc::new(Queue::new(1, 4, Duration::from_millis(200)));
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let busy = {
            let q = q.clone();
            tokio::spawn(
                async move { q.run(Duration::from_secs(30), move || rx.recv().ok()).await },
            )
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        let started = std::time::Instant::now();
        // Bounded here too, so the test fails rather than hangs if the wait is not.
        let refused = tokio::time::timeout(
            Duration::from_secs(10),
            q.run(Duration::from_secs(30), || 2),
        )
        .await
        .expect("the caller is still waiting for the busy worker");
        assert!(
            matches!(refused, Err(QueueError::Busy { .. })),
            "{refused:?}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(q.load(), (1, 0));

        // A caller that goes away while in line gives its place up.
        let gone = {
            let q = q.clone();
            tokio::spawn(async move { q.run(Duration::from_secs(30), || 3).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(q.waiting(), 1);
        gone.abort();
        let _ = gone.await;
        assert_eq!(q.waiting(), 0);

        tx.send(()).unwrap();
        assert!(busy.await.unwrap().is_ok());
        assert_eq!(q.load(), (0, 0));
        assert_eq!(q.run(Duration::from_secs(5), || 4).await.unwrap(), 4);
    }
}
