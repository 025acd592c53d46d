/**
 * The student union's pack: the reference rules, spoken in this project's names. Nothing in the
 * schema changes for policyfuzz; the mapping below is the whole adapter. Imports only the public
 * entry point.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extendPack, referencePack } from 'policyfuzz';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export default extendPack(referencePack, {
  name: 'student-union',
  migrations: path.join(HERE, 'supabase', 'migrations'),
  mapping: {
    tables: {
      users: {
        name: 'members',
        columns: {
          display_name: 'nickname',
          avatar_url: 'picture',
          phone: 'mobile',
          department: 'faculty',
          permissions: 'perms',
          managed_permissions: 'delegated_perms',
        },
      },
      pr_tickets: {
        name: 'press_requests',
        columns: {
          id: 'ref',
          submitter_id: 'requested_by',
          submitter_label: 'requester_name',
          brief: 'summary',
          file_url: 'attachment',
          status: 'state',
          handler_note: 'staff_note',
          deleted_at: 'archived_at',
        },
      },
      shop_orders: {
        name: 'orders',
        columns: {
          buyer_id: 'customer_id',
          admin_note: 'internal_note',
          timeline: 'history',
          payment_slips: 'slips',
          shipping_name: 'ship_to_name',
          shipping_phone: 'ship_to_phone',
          shipping_address: 'ship_to_address',
          buyer_note: 'customer_note',
        },
      },
    },
    functions: {
      // Returns the archived request (a row of nulls when none), where the model answers a boolean.
      soft_delete_pr_ticket: { name: 'archive_press_request', args: { p_id: 'p_ref' }, returns: 'row-as-boolean' },
      get_pr_ticket_by_id: {
        name: 'lookup_press_request',
        args: { p_id: 'p_ref' },
        columns: { id: 'ref', submitter_label: 'requester_name', brief: 'summary', file_url: 'attachment', status: 'state' },
      },
    },
    conventions: {
      // Guards and definer functions refuse with 42501 "not authorized…", where the model raises P0001.
      functionRefusal: { code: '42501', message: '^not authorized' },
      guardRefusal: { code: '42501', message: '^not authorized' },
      // No REVOKEs: Supabase's default privileges stand and row security decides.
      grants: 'supabase-default',
    },
  },
});
