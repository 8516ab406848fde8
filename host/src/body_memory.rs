//! The process's body memory: the bytes of request bodies held in memory at once, across
//! every request (`QUIRE_BODY_MEMORY_MB`), while they are read and converted, so many large
//! uploads at once queue or are refused instead of taking the machine's memory between
//! them.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Semaphore permits count kibibytes: a u32 of them covers any one reservation.
const UNIT: u64 = 1024;
/// Bodies of unknown length reserve in steps of this much.
pub const STEP: u64 = 256 << 10;

#[derive(Clone)]
pub struct BodyMemory {
    units: Arc<Semaphore>,
    total: u64,
}

/// Bytes reserved; given back when dropped.
pub struct Reservation {
    permit: Option<OwnedSemaphorePermit>,
    bytes: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum BodyMemoryError {
    #[error("{wanted} bytes cannot be held at once; at most {total} are")]
    TooLarge { wanted: u64, total: u64 },
    #[error("too much is held in memory for other requests now")]
    Busy,
}

impl Reservation {
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

impl BodyMemory {
    pub fn new(total: u64) -> BodyMemory {
        let units = (total / UNIT).clamp(1, Semaphore::MAX_PERMITS as u64) as usize;
        BodyMemory {
            units: Arc::new(Semaphore::new(units)),
            total: units as u64 * UNIT,
        }
    }

    pub fn total(&self) -> u64 {
        self.total
    }

    /// Bytes reserved now, across every holder.
    pub fn in_use(&self) -> u64 {
        self.total
            .saturating_sub(self.units.available_permits() as u64 * UNIT)
    }

    /// An empty reservation to grow.
    pub fn none(&self) -> Reservation {
        Reservation {
            permit: None,
            bytes: 0,
        }
    }

    /// Grows `held` to at least `bytes`, waiting up to `wait` for others to give some back.
    pub async fn grow(
        &self,
        held: &mut Reservation,
        bytes: u64,
        wait: Duration,
    ) -> Result<(), BodyMemoryError> {
        if bytes <= held.bytes {
            return Ok(());
        }
        if bytes > self.total {
            return Err(BodyMemoryError::TooLarge {
                wanted: bytes,
                total: self.total,
            });
        }
        let more = (bytes - held.bytes).div_ceil(UNIT);
        let more = u32::try_from(more).map_err(|_| BodyMemoryError::TooLarge {
            wanted: bytes,
            total: self.total,
        })?;
        let permit = tokio::time::timeout(wait, self.units.clone().acquire_many_owned(more))
            .await
            .map_err(|_| BodyMemoryError::Busy)?
            .map_err(|_| BodyMemoryError::Busy)?;
        match &mut held.permit {
            Some(p) => p.merge(permit),
            None => held.permit = Some(permit),
        }
        held.bytes += u64::from(more) * UNIT;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn reservations_queue_while_the_memory_is_held_and_return_when_dropped() {
        let memory = BodyMemory::new(1 << 20);
        let mut first = memory.none();
        memory
            .grow(&mut first, 600 << 10, Duration::ZERO)
            .await
            .unwrap();
        let mut second = memory.none();
        let busy = memory
            .grow(&mut second, 600 << 10, Duration::from_millis(20))
            .await;
        assert!(matches!(busy, Err(BodyMemoryError::Busy)), "{busy:?}");
        drop(first);
        memory
            .grow(&mut second, 600 << 10, Duration::from_millis(20))
            .await
            .unwrap();
        let too_large = memory
            .grow(&mut memory.none(), 2 << 20, Duration::ZERO)
            .await;
        assert!(matches!(too_large, Err(BodyMemoryError::TooLarge { .. })));
    }
}
