"""Rigid-body step: contacts from the kernel's manifolds, solved with Box2D v3's soft step.

One call of :func:`step_bodies` advances every awake :class:`~engine.bodies.RigidBody` by ``dt``:

1. **Collide.** Each awake body against static segments (broad phase), kinematic bodies, characters (which
   the solver treats as kinematic: a crate resting on the player's head cannot push the player down) and
   other bodies (a spatial hash). Manifolds are made ``speculative_distance`` early. Points keep their
   accumulated impulses from the last step when their feature ids match (warm starting).
2. **Solve** in ``substeps`` substeps, each: integrate velocities (gravity, damping), warm start, solve the
   contacts *softly* (a stiff, heavily damped spring instead of a hard constraint; Coulomb friction with
   accumulated-impulse clamping), integrate positions, then *relax* (solve again without position
   correction, so the correction adds no energy).
3. **Restitution**, applied once after the substeps, to points that approached faster than
   ``restitution_threshold``.
4. **Continuous collision** against static geometry for bodies that moved far this step.
5. **Sleep**: groups of touching bodies that all rested for ``time_to_sleep`` stop being simulated until
   something touches them.

Everything is plain floats in a fixed order, so the same inputs give bit-identical results.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .bodies import ContactEvent, PhysicsConfig, RigidBody
from .geometry import CastHit, Manifold, Transform, Vec2, collide

if TYPE_CHECKING:
    from .world import World

__all__ = ["ContactConstraint", "step_bodies"]

_IDENTITY = Transform()


@dataclass
class _Soft:
    bias_rate: float
    mass_scale: float
    impulse_scale: float


def _make_soft(hertz: float, zeta: float, h: float) -> _Soft:
    """Soft constraint coefficients (Box2D v3 ``b2MakeSoft``) for a spring of ``hertz`` and damping ratio
    ``zeta`` over a substep of ``h`` seconds."""
    if hertz == 0.0:
        return _Soft(0.0, 1.0, 0.0)
    omega = 2.0 * math.pi * hertz
    a1 = 2.0 * zeta + h * omega
    a2 = h * omega * a1
    a3 = 1.0 / (1.0 + a2)
    return _Soft(omega / a1, a2 * a3, a3)


class _Point:
    """One contact point's solver state."""

    __slots__ = (
        "rax", "ray", "rbx", "rby", "base_separation", "normal_mass", "tangent_mass", "normal_impulse",
        "tangent_impulse", "relative_velocity", "max_normal_impulse", "id", "la", "lb", "qax", "qay", "qbx",
        "qby", "sliding",
    )

    rax: float
    ray: float
    rbx: float
    rby: float
    base_separation: float
    normal_mass: float
    tangent_mass: float
    normal_impulse: float
    tangent_impulse: float
    relative_velocity: float
    max_normal_impulse: float
    id: int
    la: Vec2
    lb: Vec2
    qax: float
    qay: float
    qbx: float
    qby: float
    sliding: bool

    def __init__(self) -> None:
        self.normal_impulse = 0.0
        self.tangent_impulse = 0.0
        self.max_normal_impulse = 0.0
        self.sliding = False


@dataclass(eq=False)
class ContactConstraint:
    """A contact between participant ``a`` (static segment index, kinematic body, character or rigid body)
    and rigid body ``b``: the manifold normal points from a to b."""

    key: tuple
    a: Any
    b: RigidBody
    a_dynamic: RigidBody | None
    normal: tuple[float, float] = (0.0, 0.0)
    friction: float = 0.0
    restitution: float = 0.0
    points: list[_Point] = field(default_factory=list)
    touching: bool = False
    a_velocity: tuple[float, float] = (0.0, 0.0)
    a_angular_velocity: float = 0.0
    a_center: tuple[float, float] = (0.0, 0.0)
    b_center: tuple[float, float] = (0.0, 0.0)


def _cross(ax: float, ay: float, bx: float, by: float) -> float:
    return ax * by - ay * bx


def _update_constraint(
    c: ContactConstraint, manifold: Manifold, a_xf: Transform, b: RigidBody,
    a_friction: float, a_restitution: float, slop: float,
) -> None:
    """Refresh a constraint from this step's manifold, carrying impulses and friction anchors over by
    feature id."""
    old = {p.id: p for p in c.points}
    nx, ny = manifold.normal
    c.normal = (nx, ny)
    c.friction = math.sqrt(a_friction * b.friction)
    c.restitution = max(a_restitution, b.restitution)
    a_center = a_xf.position
    c.a_center = a_center
    c.b_center = b.position
    b_xf = b.transform
    points = []
    for mp in manifold.points:
        p = _Point()
        previous = old.get(mp.id)
        if previous is not None:
            p.normal_impulse = previous.normal_impulse
            p.tangent_impulse = previous.tangent_impulse
        if previous is not None and not previous.sliding:
            # Static friction holds the two material points that met together: keep their anchors.
            p.la, p.lb = previous.la, previous.lb
        else:
            p.la, p.lb = a_xf.apply_inverse(mp.point), b_xf.apply_inverse(mp.point)
        qa = a_xf.rotate(p.la)
        qb = b_xf.rotate(p.lb)
        p.qax, p.qay = qa
        p.qbx, p.qby = qb
        p.id = mp.id
        p.rax, p.ray = mp.point[0] - a_center[0], mp.point[1] - a_center[1]
        p.rbx, p.rby = mp.point[0] - b.position[0], mp.point[1] - b.position[1]
        p.base_separation = mp.separation - ((p.rbx - p.rax) * nx + (p.rby - p.ray) * ny)
        points.append(p)
    c.points = points
    c.touching = manifold.separation < slop


def _prepare(c: ContactConstraint) -> None:
    nx, ny = c.normal
    tx, ty = ny, -nx
    b = c.b
    a = c.a_dynamic
    ma, ia = (a.inv_mass, a.inv_inertia) if a is not None and not a.sleeping else (0.0, 0.0)
    mb, ib = b.inv_mass, b.inv_inertia
    if a is not None:
        vax, vay = a.velocity
        wa = a.angular_velocity
    else:
        vax, vay = c.a_velocity
        wa = c.a_angular_velocity
    vbx, vby = b.velocity
    wb = b.angular_velocity
    for p in c.points:
        rna = _cross(p.rax, p.ray, nx, ny)
        rnb = _cross(p.rbx, p.rby, nx, ny)
        k = ma + mb + ia * rna * rna + ib * rnb * rnb
        p.normal_mass = 1.0 / k if k > 0.0 else 0.0
        rta = _cross(p.rax, p.ray, tx, ty)
        rtb = _cross(p.rbx, p.rby, tx, ty)
        k = ma + mb + ia * rta * rta + ib * rtb * rtb
        p.tangent_mass = 1.0 / k if k > 0.0 else 0.0
        dvx = vbx - wb * p.rby - vax + wa * p.ray
        dvy = vby + wb * p.rbx - vay - wa * p.rax
        p.relative_velocity = nx * dvx + ny * dvy
        p.max_normal_impulse = 0.0


class _State:
    """Velocities and position deltas of the bodies during the substeps."""

    __slots__ = ("vx", "vy", "w", "dx", "dy", "da", "inv_mass", "inv_inertia")

    def __init__(self, body: RigidBody | None, vx: float = 0.0, vy: float = 0.0, w: float = 0.0) -> None:
        if body is not None:
            self.vx, self.vy = body.velocity
            self.w = body.angular_velocity
            self.inv_mass, self.inv_inertia = body.inv_mass, body.inv_inertia
        else:
            self.vx, self.vy, self.w = vx, vy, w
            self.inv_mass = self.inv_inertia = 0.0
        self.dx = self.dy = self.da = 0.0


def _solve(
    c: ContactConstraint, sa: _State, sb: _State, soft: _Soft, inv_h: float, use_bias: bool,
    push_max: float, slop: float,
) -> None:
    ma, ia, mb, ib = sa.inv_mass, sa.inv_inertia, sb.inv_mass, sb.inv_inertia
    vax, vay, wa = sa.vx, sa.vy, sa.w
    vbx, vby, wb = sb.vx, sb.vy, sb.w
    nx, ny = c.normal
    # Current separation from the position deltas since the step began (anchors turned with the body).
    ca, sa_ = math.cos(sa.da), math.sin(sa.da)
    cb, sb_ = math.cos(sb.da), math.sin(sb.da)
    # Per point: current separation, and the bias and softness that go with it.
    terms = []
    for p in c.points:
        prax, pray = ca * p.rax - sa_ * p.ray, sa_ * p.rax + ca * p.ray
        prbx, prby = cb * p.rbx - sb_ * p.rby, sb_ * p.rbx + cb * p.rby
        dx = sb.dx - sa.dx + prbx - prax
        dy = sb.dy - sa.dy + prby - pray
        s = dx * nx + dy * ny + p.base_separation
        if s > 0.0:
            terms.append((s * inv_h, 1.0, 0.0))  # speculative: may close the gap this substep, no more
        elif use_bias:
            terms.append((max(soft.bias_rate * s, -push_max), soft.mass_scale, soft.impulse_scale))
        else:
            terms.append((0.0, 1.0, 0.0))

    solved = False
    if len(c.points) == 2 and terms[0][1:] == terms[1][1:]:
        # Both points at once (a 2x2 block): solving them one after the other gives the first more
        # impulse than the second, a small torque every substep that sets tall stacks swaying.
        p1, p2 = c.points
        rn1a = p1.rax * ny - p1.ray * nx
        rn1b = p1.rbx * ny - p1.rby * nx
        rn2a = p2.rax * ny - p2.ray * nx
        rn2b = p2.rbx * ny - p2.rby * nx
        k11 = ma + mb + ia * rn1a * rn1a + ib * rn1b * rn1b
        k22 = ma + mb + ia * rn2a * rn2a + ib * rn2b * rn2b
        k12 = ma + mb + ia * rn1a * rn2a + ib * rn1b * rn2b
        det = k11 * k22 - k12 * k12
        if k11 * k11 < 1000.0 * det:  # well conditioned
            vn1 = (vbx - wb * p1.rby - vax + wa * p1.ray) * nx + (vby + wb * p1.rbx - vay - wa * p1.rax) * ny
            vn2 = (vbx - wb * p2.rby - vax + wa * p2.ray) * nx + (vby + wb * p2.rbx - vay - wa * p2.rax) * ny
            mass_scale, impulse_scale = terms[0][1], terms[0][2]
            e1, e2 = vn1 + terms[0][0], vn2 + terms[1][0]
            inv_det = 1.0 / det
            d1 = -mass_scale * (k22 * e1 - k12 * e2) * inv_det - impulse_scale * p1.normal_impulse
            d2 = -mass_scale * (k11 * e2 - k12 * e1) * inv_det - impulse_scale * p2.normal_impulse
            new1, new2 = p1.normal_impulse + d1, p2.normal_impulse + d2
            if new1 >= 0.0 and new2 >= 0.0:
                solved = True
                for p, impulse in ((p1, d1), (p2, d2)):
                    p.normal_impulse += impulse
                    if impulse > p.max_normal_impulse:
                        p.max_normal_impulse = impulse
                    px, py = impulse * nx, impulse * ny
                    vax -= ma * px
                    vay -= ma * py
                    wa -= ia * (p.rax * py - p.ray * px)
                    vbx += mb * px
                    vby += mb * py
                    wb += ib * (p.rbx * py - p.rby * px)
    if not solved:
        for p, (bias, mass_scale, impulse_scale) in zip(c.points, terms):
            dvx = vbx - wb * p.rby - vax + wa * p.ray
            dvy = vby + wb * p.rbx - vay - wa * p.rax
            vn = dvx * nx + dvy * ny
            impulse = -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse
            new = max(p.normal_impulse + impulse, 0.0)
            impulse = new - p.normal_impulse
            p.normal_impulse = new
            if impulse > p.max_normal_impulse:
                p.max_normal_impulse = impulse
            px, py = impulse * nx, impulse * ny
            vax -= ma * px
            vay -= ma * py
            wa -= ia * (p.rax * py - p.ray * px)
            vbx += mb * px
            vby += mb * py
            wb += ib * (p.rbx * py - p.rby * px)
    tx, ty = ny, -nx
    friction = c.friction
    acx, acy = c.a_center
    bcx, bcy = c.b_center
    for p in c.points:
        dvx = vbx - wb * p.rby - vax + wa * p.ray
        dvy = vby + wb * p.rbx - vay - wa * p.rax
        vt = dvx * tx + dvy * ty
        mass_scale, impulse_scale, bias = 1.0, 0.0, 0.0
        if use_bias:
            # Anchored (sticky) friction: pull the two material points that met back together along the
            # tangent, so static friction holds positions, not just velocities (no creep in stacks).
            pax = acx + sa.dx + ca * p.qax - sa_ * p.qay
            pay = acy + sa.dy + sa_ * p.qax + ca * p.qay
            pbx = bcx + sb.dx + cb * p.qbx - sb_ * p.qby
            pby = bcy + sb.dy + sb_ * p.qbx + cb * p.qby
            drift = (pbx - pax) * tx + (pby - pay) * ty
            bias = max(min(soft.bias_rate * drift, push_max), -push_max)
            mass_scale, impulse_scale = soft.mass_scale, soft.impulse_scale
        impulse = -p.tangent_mass * mass_scale * (vt + bias) - impulse_scale * p.tangent_impulse
        limit = friction * p.normal_impulse
        new = p.tangent_impulse + impulse
        if new > limit or new < -limit:
            new = limit if new > 0 else -limit
            p.sliding = True
        elif use_bias:
            p.sliding = False
        impulse = new - p.tangent_impulse
        p.tangent_impulse = new
        px, py = impulse * tx, impulse * ty
        vax -= ma * px
        vay -= ma * py
        wa -= ia * (p.rax * py - p.ray * px)
        vbx += mb * px
        vby += mb * py
        wb += ib * (p.rbx * py - p.rby * px)
    sa.vx, sa.vy, sa.w = vax, vay, wa
    sb.vx, sb.vy, sb.w = vbx, vby, wb


def _warm_start(c: ContactConstraint, sa: _State, sb: _State) -> None:
    nx, ny = c.normal
    tx, ty = ny, -nx
    for p in c.points:
        px = p.normal_impulse * nx + p.tangent_impulse * tx
        py = p.normal_impulse * ny + p.tangent_impulse * ty
        sa.vx -= sa.inv_mass * px
        sa.vy -= sa.inv_mass * py
        sa.w -= sa.inv_inertia * (p.rax * py - p.ray * px)
        sb.vx += sb.inv_mass * px
        sb.vy += sb.inv_mass * py
        sb.w += sb.inv_inertia * (p.rbx * py - p.rby * px)


def _restitution(c: ContactConstraint, sa: _State, sb: _State, threshold: float) -> None:
    if c.restitution == 0.0:
        return
    nx, ny = c.normal
    e = c.restitution
    for p in c.points:
        if p.relative_velocity > -threshold or p.max_normal_impulse == 0.0:
            continue
        dvx = sb.vx - sb.w * p.rby - sa.vx + sa.w * p.ray
        dvy = sb.vy + sb.w * p.rbx - sa.vy - sa.w * p.rax
        vn = dvx * nx + dvy * ny
        impulse = -p.normal_mass * (vn + e * p.relative_velocity)
        new = max(p.normal_impulse + impulse, 0.0)
        impulse = new - p.normal_impulse
        p.normal_impulse = new
        px, py = impulse * nx, impulse * ny
        sa.vx -= sa.inv_mass * px
        sa.vy -= sa.inv_mass * py
        sa.w -= sa.inv_inertia * (p.rax * py - p.ray * px)
        sb.vx += sb.inv_mass * px
        sb.vy += sb.inv_mass * py
        sb.w += sb.inv_inertia * (p.rbx * py - p.rby * px)


# ------------------------------------------------------------------------------------------------ collide
def _collide_all(world: "World", cfg: PhysicsConfig, dt: float) -> dict[tuple, ContactConstraint]:
    """This step's contact constraints, reusing last step's (for warm starting) where the pair persists."""
    old = world._constraints
    new: dict[tuple, ContactConstraint] = {}
    margin = cfg.speculative_distance
    bodies = world.bodies
    bp = world.static

    def keep(key, a, a_dyn, manifold, a_xf, a_friction, a_restitution, b, a_vel=(0.0, 0.0), a_w=0.0):
        c = old.get(key)
        if c is None:
            c = ContactConstraint(key, a, b, a_dyn)
        c.a_velocity, c.a_angular_velocity = a_vel, a_w
        _update_constraint(c, manifold, a_xf, b, a_friction, a_restitution, cfg.linear_slop)
        new[key] = c

    # Sleeping bodies are not re-collided: nothing near them moved, so their contacts stand as they were.
    for key, c in old.items():
        if c.b.sleeping and (c.a_dynamic is None or c.a_dynamic.sleeping):
            new[key] = c
    awake = [b for b in bodies if not b.sleeping]
    for body in awake:
        xf = body.transform
        box = body.aabb().grown(margin)
        for i in bp.query_list(box):
            segment = bp.shape(i)
            m = collide(segment, _IDENTITY, body.shape, xf, margin)
            if m is not None and not _leans_over_neighbour(world, i, segment, m):
                keep(("s", i, body.id), i, None, m, _IDENTITY, world.static_friction, 0.0, body)
        # Kinematic bodies and characters already moved this step; the solver sweeps them again, from
        # where they started, at the speed they moved, so crates are carried with them, not dragged after.
        for k in world.kinematic_bodies:
            start = k.previous_transform
            if k.shape.aabb(start).overlaps(box):
                m = collide(k.shape, start, body.shape, xf, margin)
                if m is not None:
                    keep(("k", id(k), body.id), k, None, m, start, world.static_friction, 0.0, body,
                         k.velocity, k.angular_velocity)
        for ch in world.characters:
            start = Transform(ch.previous_position or ch.position)
            if ch.shape.aabb(start).overlaps(box):
                m = collide(ch.shape, start, body.shape, xf, margin)
                if m is not None:
                    moved = ((ch.position[0] - start.position[0]) / dt, (ch.position[1] - start.position[1]) / dt)
                    keep(("c", id(ch), body.id), ch, None, m, start, ch.config.friction, 0.0, body, moved, 0.0)

    # Body pairs from a spatial hash (cells of the largest body size); at least one of the pair awake.
    if len(bodies) > 1:
        boxes = {b.id: b.aabb().grown(margin) for b in bodies}
        cell = max(max(bx.width, bx.height) for bx in boxes.values())
        grid: dict[tuple[int, int], list[RigidBody]] = {}
        for b in bodies:
            bx = boxes[b.id]
            for ix in range(math.floor(bx.min_x / cell), math.floor(bx.max_x / cell) + 1):
                for iy in range(math.floor(bx.min_y / cell), math.floor(bx.max_y / cell) + 1):
                    grid.setdefault((ix, iy), []).append(b)
        seen: set[tuple[int, int]] = set()
        for members in grid.values():
            for i, b1 in enumerate(members):
                for b2 in members[i + 1:]:
                    lo, hi = (b1, b2) if b1.id < b2.id else (b2, b1)
                    pair = (lo.id, hi.id)
                    if pair in seen or (lo.sleeping and hi.sleeping):
                        continue
                    seen.add(pair)
                    if not boxes[lo.id].overlaps(boxes[hi.id]):
                        continue
                    m = collide(lo.shape, lo.transform, hi.shape, hi.transform, margin)
                    if m is not None:
                        keep(("d", lo.id, hi.id), lo, lo, m, lo.transform, lo.friction, lo.restitution, hi,
                             lo.velocity, lo.angular_velocity)
    return new


def _leans_over_neighbour(world: "World", index: int, segment: Any, manifold: Manifold) -> bool:
    """The seam rule. A one-point contact with a segment's rounded end cap, at an end shared with another
    segment, whose normal leans over that other segment, belongs to the other segment (its face is what the
    body really rests on). Without this rule a crate sliding over a joint meets the end caps there with a
    tilted speculative normal and trips, though the rounded surfaces themselves meet without a bump."""
    if len(manifold.points) != 1:
        return False
    (ax, ay), (bx, by) = segment.vertices
    ex, ey = bx - ax, by - ay
    px, py = manifold.points[0].point
    t = (px - ax) * ex + (py - ay) * ey
    if 0.0 < t < ex * ex + ey * ey:
        return False  # beside the segment's flat part, not at an end
    end = 0 if t <= 0.0 else 1
    nx, ny = manifold.normal
    return any(nx * ux + ny * uy > 1e-6 for ux, uy in world.segment_joint_directions(index, end))


# ------------------------------------------------------------------------------------------------ step
def step_bodies(world: "World", dt: float) -> list[ContactEvent]:
    """Advance the world's rigid bodies by ``dt`` seconds; returns the contact begin/end events."""
    cfg = world.physics
    bodies = world.bodies
    for b in bodies:
        b.previous_transform = b.transform
    if not bodies:
        world._constraints = {}
        return []

    _wake_touched_sleepers(world)
    constraints = _collide_all(world, cfg, dt)
    for c in constraints.values():
        a = c.a_dynamic
        if a is not None and c.touching and a.sleeping != c.b.sleeping:
            a.wake()  # an awake body touching a sleeping one wakes it (its neighbours follow next step)
            c.b.wake()
    active = [c for c in constraints.values() if not c.b.sleeping]
    awake = [b for b in bodies if not b.sleeping]

    states: dict[int, _State] = {b.id: _State(b) for b in awake}
    fixed: dict[int, _State] = {}

    def state_of_a(c: ContactConstraint) -> _State:
        a = c.a_dynamic
        if a is not None:
            s = states.get(a.id)
            if s is not None:
                return s
            return fixed.setdefault(id(c), _State(None, *a.velocity, a.angular_velocity))
        return fixed.setdefault(id(c), _State(None, c.a_velocity[0], c.a_velocity[1], c.a_angular_velocity))

    for c in active:
        _prepare(c)
    pairs = [(c, state_of_a(c), states[c.b.id]) for c in active]
    moving_fixed = [s for s in fixed.values() if s.vx or s.vy or s.w]

    h = dt / cfg.substeps
    inv_h = 1.0 / h
    hertz = min(cfg.contact_hertz, 0.25 / h)
    soft = _make_soft(hertz, cfg.contact_damping_ratio, h)
    static_soft = _make_soft(2.0 * hertz, cfg.contact_damping_ratio, h)
    gx, gy = world.gravity
    max_speed = cfg.max_linear_speed
    lin_damp = 1.0 / (1.0 + h * cfg.linear_damping)
    ang_damp = 1.0 / (1.0 + h * cfg.angular_damping)
    push_max = cfg.contact_push_max_velocity
    slop = cfg.linear_slop
    ordered = [(b, states[b.id]) for b in awake]

    for _ in range(cfg.substeps):
        for b, s in ordered:
            s.vx = (s.vx + h * gx * b.gravity_scale) * lin_damp
            s.vy = (s.vy + h * gy * b.gravity_scale) * lin_damp
            s.w *= ang_damp
            speed = math.hypot(s.vx, s.vy)
            if speed > max_speed:
                s.vx, s.vy = s.vx * max_speed / speed, s.vy * max_speed / speed
        for c, sa, sb in pairs:
            _warm_start(c, sa, sb)
        for c, sa, sb in pairs:
            _solve(c, sa, sb, static_soft if c.a_dynamic is None else soft, inv_h, True, push_max, slop)
        for _b, s in ordered:
            s.dx += h * s.vx
            s.dy += h * s.vy
            s.da += h * s.w
        for s in moving_fixed:  # kinematic bodies and characters move at their own speed
            s.dx += h * s.vx
            s.dy += h * s.vy
            s.da += h * s.w
        for c, sa, sb in pairs:
            _solve(c, sa, sb, soft, inv_h, False, push_max, slop)
    for c, sa, sb in pairs:
        _restitution(c, sa, sb, cfg.restitution_threshold)

    for b, s in ordered:
        x0, y0 = b.position
        b.position = (x0 + s.dx, y0 + s.dy)
        b.angle += s.da
        b.velocity = (s.vx, s.vy)
        b.angular_velocity = s.w
    if cfg.continuous:
        _continuous(world, awake)
    world._constraints = constraints
    _sleep(world, active, awake, dt)
    return _events(world, constraints)


def _wake_touched_sleepers(world: "World") -> None:
    """Moving kinematic bodies and characters wake the sleeping bodies they touch."""
    sleepers = [b for b in world.bodies if b.sleeping]
    if not sleepers:
        return
    movers = [(k.aabb(), k.velocity != (0.0, 0.0) or k.angular_velocity != 0.0) for k in world.kinematic_bodies]
    movers += [(ch.shape.aabb(ch.transform), ch.velocity != (0.0, 0.0)) for ch in world.characters]
    for b in sleepers:
        box = b.aabb().grown(world.physics.speculative_distance)
        if any(moving and mbox.overlaps(box) for mbox, moving in movers):
            b.wake()


def _continuous(world: "World", awake: list[RigidBody]) -> None:
    """Fast bodies are swept against static geometry from where they were to where the solver put them,
    and stopped at the first touch: nothing passes through a thin platform in one step."""
    bp = world.static
    for b in awake:
        start = b.previous_transform
        dx, dy = b.position[0] - start.position[0], b.position[1] - start.position[1]
        extent = min(b.shape.local_aabb.width, b.shape.local_aabb.height)
        if math.hypot(dx, dy) < 0.25 * extent:
            continue
        found = bp.shape_cast(b.shape, Transform(start.position, b.angle), (dx, dy))
        hit = found.hit if found is not None else None
        if not isinstance(hit, CastHit) or hit.started_inside or hit.fraction >= 1.0:
            continue
        length = math.hypot(dx, dy)
        if (hit.normal[0] * dx + hit.normal[1] * dy) > -0.2 * length:
            continue  # a glancing touch (sliding along the floor over a joint) is the solver's business
        f = hit.fraction
        back = min(f, world.physics.linear_slop / length)  # stop just short of the surface
        b.position = (start.position[0] + dx * (f - back), start.position[1] + dy * (f - back))


def _sleep(world: "World", active: list[ContactConstraint], awake: list[RigidBody], dt: float) -> None:
    cfg = world.physics
    if not cfg.enable_sleep:
        return
    for b in awake:
        box = b.shape.local_aabb
        extent = 0.5 * max(box.width, box.height)
        spin = abs(b.angular_velocity) * extent
        if math.hypot(*b.velocity) > cfg.sleep_linear_velocity or spin > cfg.sleep_linear_velocity:
            b.sleep_time = 0.0
        else:
            b.sleep_time += dt
    # Groups of touching bodies sleep together; touching a moving kinematic body or a character keeps awake.
    parent = {b.id: b.id for b in awake}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for c in active:
        if not c.touching:
            continue
        if c.key[0] in ("k", "c") and (c.a_velocity != (0.0, 0.0) or c.a_angular_velocity != 0.0):
            c.b.sleep_time = 0.0
        a = c.a_dynamic
        if a is not None and a.id in parent and c.b.id in parent:
            ra, rb = find(a.id), find(c.b.id)
            if ra != rb:
                parent[ra] = rb
    rest: dict[int, float] = {}
    for b in awake:
        r = find(b.id)
        rest[r] = min(rest.get(r, math.inf), b.sleep_time)
    for b in awake:
        if rest[find(b.id)] >= cfg.time_to_sleep:
            b.sleeping = True
            b.velocity = (0.0, 0.0)
            b.angular_velocity = 0.0


def _events(world: "World", constraints: dict[tuple, ContactConstraint]) -> list[ContactEvent]:
    """Begin / end events from the change in touching pairs since the last step."""
    events: list[ContactEvent] = []
    now = {key: c for key, c in constraints.items() if c.touching}
    before = world._touching
    for key, c in now.items():
        if key not in before:
            events.append(ContactEvent("begin", c.a, c.b, c.normal))
    for key, (a, b) in before.items():
        if key not in now:
            events.append(ContactEvent("end", a, b, (0.0, 0.0)))
    world._touching = {key: (c.a, c.b) for key, c in now.items()}
    return events
