//! Conversions are CPU-bound: they run on blocking threads, at most `workers` at once, with
//! a bounded line of callers waiting. A full line is answered at once (503 + Retry-After)
//! rather than letting requests pile up behind work that cannot finish in time.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

pub struct Queue {
    workers: usize,
    permits: Arc<Semaphore>,
    waiting: AtomicUsize,
    max_waiting: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    #[error("the conversion queue is full; try again in {} s", retry_after.as_secs())]
    Full { retry_after: Duration },
    #[error("the conversion did not finish within {} s", .0.as_secs_f64())]
    TimedOut(Duration),
    #[error("the conversion worker failed: {0}")]
    Worker(String),
}

impl Queue {
    pub fn new(workers: usize, max_waiting: usize) -> Queue {
        Queue {
            workers: workers.max(1),
            permits: Arc::new(Semaphore::new(workers.max(1))),
            waiting: AtomicUsize::new(0),
            max_waiting,
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
    /// the result; the sandbox's own deadline stops the work itself shortly after.
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
                        retry_after: Duration::from_secs(2),
                    });
                }
                let acquired = self.permits.clone().acquire_owned().await;
                self.waiting.fetch_sub(1, Ordering::SeqCst);
                acquired.map_err(|e| QueueError::Worker(e.to_string()))?
            }
        };
        // The permit travels with the work: a timed-out call still holds its worker until
        // the sandbox has actually stopped it.
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
        let q = Arc::new(Queue::new(1, 1));
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
}
