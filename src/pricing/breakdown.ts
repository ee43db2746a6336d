import { allocate, applyPercentage } from '../kernel/money/arithmetic.js';
import type { Minor } from '../kernel/money/units.js';
import type { PriceBreakdown } from './results.js';

/** The percentages that turn a sale list price into its breakdown, fixed per plan and request. */
export interface Rates {
  commissionPercentage: number;
  /** 0 when no campaign applies. */
  campaignPercentage: number;
  /** 0 when the partner gives none. */
  partnerPercentage: number;
}

/**
 * The breakdown of one component (the base premium, or one option) from its sale list price.
 * Each amount is one percentage application, rounded once (see money.ts):
 *   commission        = sale × commission%            net = sale − commission
 *   saleCampaign      = sale × campaign%               netCampaign = net × campaign%
 *   salePartner       = (sale − saleCampaign) × partner%, capped at the commission left after the
 *                       partner's share of the campaign (saleCampaign − netCampaign), so a partner
 *                       discount never reaches the insurer's net.
 */
export function breakDown(sale: Minor, rates: Rates): PriceBreakdown {
  const commission = applyPercentage(sale, rates.commissionPercentage);
  const net = sale - commission;
  const saleCampaign = applyPercentage(sale, rates.campaignPercentage);
  const netCampaign = applyPercentage(net, rates.campaignPercentage);
  const commissionLeft = Math.max(0, commission - (saleCampaign - netCampaign));
  const salePartner = Math.min(applyPercentage(sale - saleCampaign, rates.partnerPercentage), commissionLeft);
  return {
    saleListPrice: sale,
    saleListCommission: commission,
    netListPrice: net,
    saleCampaignDiscount: saleCampaign,
    netCampaignDiscount: netCampaign,
    salePartnerDiscount: salePartner,
  };
}

/**
 * Splits a component's breakdown over its parts (travellers, items) whose sale list prices are
 * `partSales` (they sum to the component's sale). Each amount is allocated in proportion to the
 * base it was computed on: commission and campaign discount by sale, the net campaign discount by
 * net, the partner discount by sale after campaign discount. So every field of the parts sums to
 * the component's field, and no part's net or premium goes below zero.
 */
export function allocateBreakdown(whole: PriceBreakdown, partSales: readonly Minor[]): PriceBreakdown[] {
  const commission = allocate(whole.saleListCommission, partSales);
  const nets = partSales.map((sale, i) => sale - (commission[i] ?? 0));
  const saleCampaign = allocate(whole.saleCampaignDiscount, partSales);
  const netCampaign = allocate(whole.netCampaignDiscount, nets);
  const salePartner = allocate(
    whole.salePartnerDiscount,
    partSales.map((sale, i) => sale - (saleCampaign[i] ?? 0)),
  );
  return partSales.map((sale, i) => ({
    saleListPrice: sale,
    saleListCommission: commission[i] ?? 0,
    netListPrice: nets[i] ?? 0,
    saleCampaignDiscount: saleCampaign[i] ?? 0,
    netCampaignDiscount: netCampaign[i] ?? 0,
    salePartnerDiscount: salePartner[i] ?? 0,
  }));
}

/** What the customer pays for a component before taxes. */
export const premiumOf = (b: PriceBreakdown): Minor => b.saleListPrice - b.saleCampaignDiscount - b.salePartnerDiscount;
