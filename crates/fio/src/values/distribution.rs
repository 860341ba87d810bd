//! `random_distribution`: the named distributions and fio's zone lists.

use super::{parse_size, parse_uint, Form, ValueError};
use iomark_engine::job::Distribution;

/// `random`, `zipf:1.2[:center]`, `pareto:0.9[:center]`, `normal:5[:center]` / `gauss:5`,
/// `zoned:60/10:30/20:8/30:2/40`, `zoned_abs:60/20g:30/10g`.
pub fn parse_distribution(s: &str, kb_base: u32) -> Result<Distribution, ValueError> {
    let t = s.trim();
    let (kind, rest) = match t.split_once(':') {
        Some((k, r)) => (k.trim().to_ascii_lowercase(), Some(r.trim())),
        None => (t.to_ascii_lowercase(), None),
    };
    let num = |x: &str| -> Result<f64, ValueError> {
        x.trim()
            .parse::<f64>()
            .map_err(|_| ValueError::NotANumber(x.to_string()).expected(Form::Distribution))
    };
    // Without a parameter each takes fio's default: zipf 1.1, pareto 0.2, normal 0 (its
    // spread without an extra deviation).
    let params = |rest: Option<&str>, default: f64| -> Result<(f64, f64), ValueError> {
        let Some(r) = rest else {
            return Ok((default, 0.0));
        };
        let (a, c) = match r.split_once(':') {
            Some((a, c)) => (num(a)?, num(c)?),
            None => (num(r)?, 0.0),
        };
        if !(0.0..=1.0).contains(&c) {
            return Err(ValueError::Center(c));
        }
        Ok((a, c))
    };
    match kind.as_str() {
        "random" if rest.is_none() => Ok(Distribution::Random),
        "zipf" => {
            let (theta, center) = params(rest, 1.1)?;
            if theta <= 0.0 || theta == 1.0 {
                return Err(ValueError::ZipfTheta(theta));
            }
            Ok(Distribution::Zipf { theta, center })
        }
        "pareto" => {
            let (h, center) = params(rest, 0.2)?;
            if h <= 0.0 || h >= 1.0 {
                return Err(ValueError::ParetoH(h));
            }
            Ok(Distribution::Pareto { h, center })
        }
        "normal" | "gauss" => {
            let (sigma_pct, center) = params(rest, 0.0)?;
            if !(0.0..=100.0).contains(&sigma_pct) {
                return Err(ValueError::NormalSigma(sigma_pct));
            }
            Ok(Distribution::Normal { sigma_pct, center })
        }
        "zoned" | "zoned_abs" => {
            let r = rest.ok_or_else(|| ValueError::NeedsZones(t.to_string()))?;
            parse_zones(r, kind == "zoned_abs", kb_base)
        }
        _ => Err(ValueError::NotADistribution(t.to_string())),
    }
}

/// The zones of `zoned:` / `zoned_abs:` as fio reads them: per direction `read,write,trim`
/// (one list for all three; with two, trim takes write's; an empty part is uniform), each list
/// `ACCESS/REGION` entries separated by `:` and ending at an empty one. Access percentages are
/// whole numbers adding up to exactly 100. `zoned` regions are percentages (above 100 counts as
/// 100; 0 or none given shares out what the others leave) adding up to at most 100: zones cover
/// that share of the region from its start. `zoned_abs` regions are sizes.
fn parse_zones(r: &str, absolute: bool, kb_base: u32) -> Result<Distribution, ValueError> {
    let parts: Vec<&str> = r.split(',').collect();
    if parts.len() > 3 {
        return Err(ValueError::TooManyZoneLists(r.to_string()));
    }
    let one = |list: &str| zone_list(list, absolute, kb_base);
    let (rd, wr, tr) = match parts.as_slice() {
        [all] => {
            let d = one(all)?;
            (d.clone(), d.clone(), d)
        }
        [a, b] => {
            let w = one(b)?;
            (one(a)?, w.clone(), w)
        }
        [a, b, c] => (one(a)?, one(b)?, one(c)?),
        _ => unreachable!("split gives at least one part"),
    };
    if rd == wr && wr == tr {
        return Ok(rd);
    }
    Ok(Distribution::PerDir(Box::new([rd, wr, tr])))
}

/// One direction's zone list (see [`parse_zones`]); an empty list is uniform.
fn zone_list(list: &str, absolute: bool, kb_base: u32) -> Result<Distribution, ValueError> {
    let mut access = Vec::new();
    let mut regions: Vec<Option<u64>> = Vec::new();
    for z in list.split(':') {
        let z = z.trim();
        if z.is_empty() {
            break;
        }
        let (a, b) = match z.split_once('/') {
            Some((a, b)) => (a.trim(), Some(b.trim())),
            None => (z, None),
        };
        let a = parse_uint(a, kb_base).map_err(|e| e.in_zone(z))?;
        access.push(a);
        regions.push(match b {
            None if absolute => Some(0),
            None => None,
            Some(b) if absolute => Some(parse_size(b, kb_base).map_err(|e| e.in_zone(z))?),
            Some(b) => {
                // fio reads the region percentage with atoi: leading digits, 0 when none.
                let digits: String = b.chars().take_while(|c| c.is_ascii_digit()).collect();
                match digits.parse::<u64>().unwrap_or(0) {
                    0 => None,
                    p => Some(p.min(100)),
                }
            }
        });
    }
    if access.is_empty() {
        return Ok(Distribution::Random);
    }
    let access_sum: u64 = access.iter().sum();
    let region_sum: u64 = if absolute {
        0
    } else {
        regions.iter().flatten().sum()
    };
    if access_sum > 100 || region_sum > 100 {
        return Err(ValueError::ZonesOver100 {
            access: access_sum,
            region: region_sum,
        });
    }
    if access_sum < 100 {
        return Err(ValueError::ZoneAccessNot100(access_sum));
    }
    if absolute {
        return Ok(Distribution::ZonedAbs(
            access
                .iter()
                .zip(&regions)
                .map(|(&a, r)| (a as f64, r.unwrap_or(0)))
                .collect(),
        ));
    }
    let missing = regions.iter().filter(|r| r.is_none()).count() as u64;
    let fill = if missing == 1 && regions.len() == 1 {
        100
    } else {
        (100 - region_sum).checked_div(missing).unwrap_or(0)
    };
    Ok(Distribution::Zoned(
        access
            .iter()
            .zip(&regions)
            .map(|(&a, r)| (a as f64, r.unwrap_or(fill) as f64))
            .collect(),
    ))
}
