public import Reconcile

/// What a client keeps when its zone is deleted: the core's `ZoneLossPolicy`, by the name the simulator's
/// configuration and scripts (`zone-deletion drop|reupload`) have always used.
public typealias ZoneDeletionResponse = ZoneLossPolicy
