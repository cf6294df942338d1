-- A reaper claims an object before deleting it upstream, so that with several replicas each object
-- is deleted once. The claim expires, so a reaper that died mid-way does not block the object forever.
ALTER TABLE owned_object ADD COLUMN claimed_until TIMESTAMP WITH TIME ZONE;
