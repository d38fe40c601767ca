//! Compiling the attack tables: each side's movement turned round, so that
//! "is this square attacked?" looks from the square outwards
//! ([`AttackTables`]).

use super::tables::{AttackTables, BentPath, FromOffset, MAX_RAYS, NO_RAY, RayPlan, RiderReach};
use crate::geometry::Geometry;
use crate::piece::{CompiledLeg, Moveset, Side};

/// Both sides' attack tables, index = the attacking side, on `geo`.
pub(super) fn attack_tables(movesets: &[[Moveset; 2]], geo: &Geometry) -> [AttackTables; 2] {
    Side::BOTH.map(|by| tables_for(movesets, by, geo))
}

/// The attack tables of the pieces of side `by`.
fn tables_for(movesets: &[[Moveset; 2]], by: Side, geo: &Geometry) -> AttackTables {
    let mut t = AttackTables::default();
    for (i, ms) in movesets.iter().enumerate() {
        let bit = 1u128 << i;
        let m = &ms[by.index()];
        add_leaps(&mut t, m, bit);
        add_rides(&mut t, m, bit);
        add_hops(&mut t, m, bit);
        add_multi(&mut t, m, bit);
        t.full_reach.push(full_reach(m));
        t.check_reach.push(check_reach(m));
    }
    // Merge ride entries with the same reach into one mask.
    for (_, v) in t.rides.iter_mut() {
        let mut merged: Vec<RiderReach> = Vec::new();
        for &(b, lo, hi) in v.iter() {
            match merged.iter_mut().find(|e| e.1 == lo && e.2 == hi) {
                Some(e) => e.0 |= b,
                None => merged.push((b, lo, hi)),
            }
        }
        *v = merged;
    }
    t.plan = ray_plan(&t);
    t.by_offset = by_offset(&t, geo);
    t
}

/// [`AttackTables::by_offset`]: every offset between two cells of the
/// mailbox of `geo`, from `1 - cells` to `cells - 1`. A ride's bit goes
/// only where its line stays within the board's span (more steps would
/// name, by the mailbox's wrap, cells of other lines).
fn by_offset(t: &AttackTables, geo: &Geometry) -> Vec<FromOffset> {
    let half = geo.cells().max(1) as i32 - 1;
    let mut v = vec![FromOffset::default(); 2 * half as usize + 1];
    let at = |off: i32| (off.abs() <= half).then(|| (off + half) as usize);
    for &(off, mask) in &t.leaps {
        if let Some(i) = at(i32::from(off)) {
            v[i].leaps |= mask;
        }
    }
    let stride = i32::from(geo.offset(0, 1));
    let (files, ranks) = (i32::from(geo.files()), i32::from(geo.ranks()));
    for (i, &(step, _)) in t.rides.iter().enumerate().take(32) {
        let step = i32::from(step);
        if step == 0 || stride <= 0 {
            continue;
        }
        let dy = (step + stride / 2).div_euclid(stride);
        let dx = step - dy * stride;
        let mut k = 1;
        while (k * dx).abs() < files && (k * dy).abs() < ranks {
            if let Some(j) = at(k * step) {
                v[j].rides |= 1 << i;
            }
            k += 1;
        }
    }
    v
}

/// Arranges the ride, hop and bent entries of `t` by the line each walks
/// from the target ([`RayPlan`]). Only lines that two or more entries walk
/// get an index: remembering a line walked once costs more than it saves
/// (Courier's Rooks and Couriers each look along their own).
fn ray_plan(t: &AttackTables) -> RayPlan {
    let straight_multi: Vec<Option<(i16, i16, u16, u16)>> =
        t.multi.iter().map(|(legs, _)| straight(legs)).collect();
    // Every line walked, once per entry that walks it.
    let walked: Vec<i16> = t
        .rides
        .iter()
        .map(|&(step, _)| step)
        .chain(t.hops.iter().map(|&(step, ..)| step))
        .chain(t.bents.iter().map(|&(_, slide, ..)| -slide))
        .chain(
            straight_multi
                .iter()
                .flatten()
                .map(|&(_, slide, ..)| -slide),
        )
        .collect();
    let mut rays = Vec::new();
    let mut ray = |step: i16| -> u8 {
        if let Some(i) = rays.iter().position(|&r| r == step) {
            return i as u8;
        }
        if rays.len() == MAX_RAYS || walked.iter().filter(|&&w| w == step).count() < 2 {
            return NO_RAY;
        }
        rays.push(step);
        (rays.len() - 1) as u8
    };
    let rides = t.rides.iter().map(|&(step, _)| ray(step)).collect();
    let hops = t.hops.iter().map(|&(step, ..)| ray(step)).collect();
    let bents = t
        .bents
        .iter()
        .map(|&(first, slide, max, mask)| BentPath {
            step: -slide,
            ray: ray(-slide),
            first,
            min: 1,
            max: u16::from(max),
            mask,
        })
        .collect();
    let multi = t
        .multi
        .iter()
        .zip(straight_multi)
        .map(|((_, mask), path)| {
            let (first, slide, min, max) = path?;
            Some(BentPath {
                step: -slide,
                ray: ray(-slide),
                first,
                min,
                max,
                mask: *mask,
            })
        })
        .collect();
    RayPlan {
        rides,
        hops,
        bents,
        multi,
    }
}

/// A multi-leg path (legs as (step offset, most steps)) that is one first
/// step and then a straight slide: every leg after the first along the
/// same step, each but the last a single step. Returns (first step, slide
/// step, fewest and most slide steps). Walking it back leg by leg visits
/// the slide's squares once per leg; as a [`BentPath`] it reads each once.
fn straight(legs: &[(i16, u8)]) -> Option<(i16, i16, u16, u16)> {
    let [(first, 1), rest @ ..] = legs else {
        return None;
    };
    let (&(slide, last), middle) = rest.split_last()?;
    if slide == 0 || !middle.iter().all(|&(off, max)| off == slide && max == 1) {
        return None;
    }
    let n = middle.len() as u16;
    Some((*first, slide, n + 1, n + u16::from(last)))
}

/// [`AttackTables::check_reach`] of a type of moveset `m`: a leaper
/// moves and attacks no farther than its longest leg.
fn check_reach(m: &Moveset) -> u8 {
    if !m.rides.is_empty() || !m.hops.is_empty() || !m.multi.is_empty() || m.reach < 0 {
        return u8::MAX;
    }
    (2 * m.reach).min(i32::from(u8::MAX)) as u8
}

/// The farthest, in cells along either axis, that a move of `m` outside
/// the plain leap, ride and hop tables can capture: lame and initial leaps,
/// initial rides and hops, every multi-leg path (255: no bound). See
/// [`AttackTables::full_reach`].
fn full_reach(m: &Moveset) -> u8 {
    let mut r: u32 = 0;
    if m.leaps
        .iter()
        .any(|l| l.capture && (!l.lame.is_empty() || l.initial))
    {
        r = r.max(m.reach.max(0) as u32);
    }
    let long_initial = m.rides.iter().any(|x| x.capture && x.initial)
        || m.hops.iter().any(|(h, _)| h.capture && h.initial);
    if long_initial {
        return u8::MAX;
    }
    for (legs, _) in &m.multi {
        let mut path: u32 = 0;
        for l in legs {
            if l.max == u8::MAX {
                return u8::MAX;
            }
            let step = l.vector.0.unsigned_abs().max(l.vector.1.unsigned_abs());
            path += u32::from(step) * u32::from(l.max);
        }
        r = r.max(path);
    }
    r.min(u32::from(u8::MAX)) as u8
}

/// Adds the capturing leaps of `m` (type bit `bit`).
fn add_leaps(t: &mut AttackTables, m: &Moveset, bit: u128) {
    for l in &m.leaps {
        if !l.capture {
            continue;
        }
        if !l.lame.is_empty() || l.initial {
            t.complex |= bit;
            continue;
        }
        match t.leaps.iter_mut().find(|(o, _)| *o == -l.off) {
            Some(e) => e.1 |= bit,
            None => t.leaps.push((-l.off, bit)),
        }
    }
}

/// Adds the capturing slides of `m` (type bit `bit`).
fn add_rides(t: &mut AttackTables, m: &Moveset, bit: u128) {
    for r in &m.rides {
        if !r.capture {
            continue;
        }
        if r.initial {
            t.complex |= bit;
            continue;
        }
        match t.rides.iter_mut().find(|(o, _)| *o == -r.off) {
            Some(e) => e.1.push((bit, r.min, r.max)),
            None => t.rides.push((-r.off, vec![(bit, r.min, r.max)])),
        }
    }
}

/// Adds the capturing hops of `m` (type bit `bit`).
fn add_hops(t: &mut AttackTables, m: &Moveset, bit: u128) {
    for (h, grasshopper) in &m.hops {
        if !h.capture {
            continue;
        }
        if h.initial {
            t.complex |= bit;
            continue;
        }
        match t
            .hops
            .iter_mut()
            .find(|x| x.0 == -h.off && x.2 == h.max && x.3 == *grasshopper)
        {
            Some(e) => e.1 |= bit,
            None => t.hops.push((-h.off, bit, h.max, *grasshopper)),
        }
    }
}

/// Adds the capturing multi-leg paths of `m` (type bit `bit`): bent riders
/// and paths that can be walked back get table entries, the rest mark the
/// type complex.
fn add_multi(t: &mut AttackTables, m: &Moveset, bit: u128) {
    for (legs, initial) in &m.multi {
        if !legs.iter().any(|l| l.mode.capture) {
            continue;
        }
        if *initial {
            t.complex |= bit;
            continue;
        }
        if let Some((first, slide, max)) = bent(legs) {
            match t
                .bents
                .iter_mut()
                .find(|x| x.0 == first && x.1 == slide && x.2 == max)
            {
                Some(e) => e.3 |= bit,
                None => t.bents.push((first, slide, max, bit)),
            }
        } else if reversible(legs) {
            let key: Vec<(i16, u8)> = legs.iter().map(|l| (l.off, l.max)).collect();
            match t.multi.iter_mut().find(|(k, _)| *k == key) {
                Some(e) => e.1 |= bit,
                None => t.multi.push((key, bit)),
            }
        } else {
            t.complex |= bit;
        }
    }
}

/// A two-leg path that is a bent rider: one step to an empty square, then a
/// plain capturing slide that does not run back over the origin. Returns
/// (first step, slide step, most slide steps).
fn bent(legs: &[CompiledLeg]) -> Option<(i16, i16, u8)> {
    let [a, b] = legs else { return None };
    let plain_a = a.max == 1
        && a.mode.to_empty
        && !a.mode.capture
        && !a.mode.hop_any
        && !a.mode.cannon
        && !a.mode.grasshopper;
    let plain_b = b.mode.capture && !b.mode.hop_any && !b.mode.cannon && !b.mode.grasshopper;
    // A slide back towards the origin could pass over it: leave that to the generator.
    let back = (1..=b.max as i32).any(|j| j * b.off as i32 == -(a.off as i32));
    (plain_a && plain_b && !back).then_some((a.off, b.off, b.max))
}

/// Can attacks along this multi-leg path be found by walking it backwards
/// from the target ([`AttackTables::multi`])? Every leg but the last ends on
/// an empty square (no capture, no hop), the last may capture, and every
/// leg keeps moving the same way as the first (so no square is visited
/// twice and the origin is never passed): the Giraffe, bent riders.
fn reversible(legs: &[CompiledLeg]) -> bool {
    let Some((_, lead)) = legs.split_last() else {
        return false;
    };
    let first = legs[0].vector;
    lead.iter()
        .all(|l| l.mode.to_empty && !l.mode.capture && !l.mode.hop_any)
        && legs.iter().all(|l| {
            let dot = l.vector.0 as i32 * first.0 as i32 + l.vector.1 as i32 * first.1 as i32;
            dot > 0
        })
}
