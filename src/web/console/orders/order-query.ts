import { graphql } from '../../shared/gql';
import type { StaffOrderDeskQuery, StaffOrderQuery } from '../../shared/gql/graphql';

/** What every staff role reads of an order: its work (files, reviews, notarization, certificate, notes, messages). */
export const StaffOrder = graphql(`
  query StaffOrder($number: String!) {
    staffOrder(number: $number) {
      id
      number
      status
      serviceType
      sourceLanguage
      targetLanguage
      reference
      instructions
      holdReason
      dueAt
      createdAt
      completedAt
      cancelledAt
      unitCount
      unitType
      documentPages
      scannedPages
      assignee {
        id
        name
        role
        deactivatedAt
      }
      files {
        id
        name
        type
        downloadUrl
      }
      reviews {
        fileId
        kind
        reviewedAt
        reviewer {
          name
        }
      }
      notarization {
        notaryName
        jurisdiction
        commissionNumber
        commissionExpiresOn
        notarizedAt
        scanFileId
      }
      certificate {
        code
        issuedAt
        notarized
        verifyUrl
        translator {
          name
          credentials
        }
      }
      notes {
        id
        text
        createdAt
        author {
          name
        }
      }
      messages(perPage: 50) {
        items {
          id
          text
          createdAt
          author {
            kind
            name
          }
        }
      }
    }
  }
`);

/** What the desk (admins and desk staff, not translators) reads besides: the account, the money, the trail. */
export const StaffOrderDesk = graphql(`
  query StaffOrderDesk($number: String!, $orderId: ID!) {
    staffOrder(number: $number) {
      id
      totalCents
      currency
      addons {
        code
      }
      account {
        id
        name
        email
      }
      payment {
        provider
        status
        paidAt
        capturedCents
        refundedCents
        refundPendingCents
        refundRefusal
      }
    }
    staffUsers(perPage: 100) {
      items {
        id
        name
        role
        deactivatedAt
      }
    }
    auditLog(resourceId: $orderId, perPage: 100) {
      items {
        id
        action
        actorLabel
        fromState
        toState
        createdAt
      }
    }
  }
`);

export type OrderView = NonNullable<StaffOrderQuery['staffOrder']>;
export type OrderDeskView = StaffOrderDeskQuery;
