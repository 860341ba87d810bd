//! The written-block map: the last generation written to each block of a region.

/// Last generation written to each block of a region: 4 bytes per block, zero meaning never
/// written (1 GiB for 2^28 blocks, e.g. 1 TiB in 4 KiB blocks; the pages of blocks never written
/// are never touched). Generations are per block: the first write of a block is generation 1.
///
/// Record a block's generation when its write is *submitted*. If a later write to the same block
/// is submitted while an earlier one is still in flight, either may land last: check that block
/// with `min_generation` set to the oldest write that was in flight instead of
/// `exact_generation`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct WrittenMap {
    gens: Vec<u32>,
}

impl WrittenMap {
    /// A map for `blocks` blocks, none written.
    pub(crate) fn new(blocks: usize) -> WrittenMap {
        WrittenMap {
            gens: vec![0; blocks],
        }
    }

    /// Bytes of memory a map of `blocks` blocks takes.
    #[cfg(test)]
    pub(crate) fn memory_bytes(blocks: usize) -> usize {
        blocks * std::mem::size_of::<u32>()
    }

    /// Number of blocks covered.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.gens.len()
    }

    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.gens.is_empty()
    }

    /// Sets the last generation written to `block`. Panics if `block` is out of range.
    #[inline]
    #[cfg(test)]
    pub(crate) fn record(&mut self, block: u64, generation: u32) {
        self.gens[block as usize] = generation;
    }

    /// Allocates the next generation of `block` (the last one plus one, saturating), records it
    /// and returns it. Panics if `block` is out of range.
    #[inline]
    pub(crate) fn bump(&mut self, block: u64) -> u32 {
        let g = &mut self.gens[block as usize];
        *g = g.saturating_add(1);
        *g
    }

    /// The last generation written to `block`; `None` if never written or out of range.
    #[inline]
    pub(crate) fn get(&self, block: u64) -> Option<u32> {
        match self.gens.get(usize::try_from(block).ok()?) {
            Some(&g) if g != 0 => Some(g),
            _ => None,
        }
    }

    /// Written blocks in index order, with their last generation.
    #[cfg(test)]
    pub(crate) fn written(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.gens
            .iter()
            .enumerate()
            .filter(|(_, &g)| g != 0)
            .map(|(i, &g)| (i as u64, g))
    }

    /// Forgets every write.
    #[cfg(test)]
    pub(crate) fn clear(&mut self) {
        self.gens.fill(0);
    }
}
