public import Reconcile

/// The core's `ZoneLossPolicy`, by the name the simulator used before it had the core's.
@available(*, deprecated, renamed: "ZoneLossPolicy", message: "One name per concept: use the core's ZoneLossPolicy.")
public typealias ZoneDeletionResponse = ZoneLossPolicy
